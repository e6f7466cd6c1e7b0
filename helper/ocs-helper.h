#ifndef OCS_HELPER_H
#define OCS_HELPER_H
#endif
