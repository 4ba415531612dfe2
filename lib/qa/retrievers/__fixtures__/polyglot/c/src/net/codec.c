#include <string.h>
#include "codec.h"

/* Decodes a wire payload into a record. */
int codec_decode(const char *data, char *out) {
  strcpy(out, data);
  return (int)strlen(out);
}

/* Encodes a record and sends it. */
int codec_encode_and_send(const char *record) {
  return client_send(record);
}
