#ifndef WORKLOAD_JSON_H
#define WORKLOAD_JSON_H

// Placeholder: the workload layer (issue 4) fills this file.

#endif /* WORKLOAD_JSON_H */
