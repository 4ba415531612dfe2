#ifndef SHOP_CLIENT_H
#define SHOP_CLIENT_H
#include "codec.h"

/* Sends an encoded payload. */
int client_send(const char *payload);
/* Fetches one remote record by name. */
int client_fetch(const char *name, char *out);

#endif
