#ifndef OCS_TECHNOLOGY_H
#define OCS_TECHNOLOGY_H
#endif
