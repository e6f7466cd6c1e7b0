#ifndef OCS_NET_DEVICE_H
#define OCS_NET_DEVICE_H
#endif
