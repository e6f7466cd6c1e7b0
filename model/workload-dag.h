#ifndef WORKLOAD_DAG_H
#define WORKLOAD_DAG_H

// Placeholder: the workload layer (issue 4) fills this file.

#endif /* WORKLOAD_DAG_H */
