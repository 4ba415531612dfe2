#ifndef SHOP_UTIL_H
#define SHOP_UTIL_H
#include <stddef.h>

/* Normalizes a record name into the key it is stored under. */
void format_key(const char *name, char *out, size_t size);

#endif
