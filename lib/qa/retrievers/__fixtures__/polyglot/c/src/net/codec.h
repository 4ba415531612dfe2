#ifndef SHOP_CODEC_H
#define SHOP_CODEC_H
#include "client.h"

/* Decodes a wire payload into a record. */
int codec_decode(const char *data, char *out);
/* Encodes a record and sends it. */
int codec_encode_and_send(const char *record);

#endif
