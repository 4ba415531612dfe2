#include <string.h>
#include "client.h"
#include "../core/util.h"

/* Sends an encoded payload. */
int client_send(const char *payload) {
  return (int)strlen(payload);
}

/* Fetches one remote record by name. */
int client_fetch(const char *name, char *out) {
  char key[32];
  format_key(name, key, sizeof key);
  return codec_decode(key, out);
}
