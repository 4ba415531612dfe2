#include <ctype.h>
#include "util.h"

/* Normalizes a record name into the key it is stored under. */
void format_key(const char *name, char *out, size_t size) {
  size_t i = 0;
  while (*name == ' ') name++;
  for (; name[i] && i + 1 < size; i++) out[i] = (char)tolower((unsigned char)name[i]);
  out[i] = '\0';
}
