#include <string.h>
#include "store.h"
#include "util.h"

/* Persists a record in the store under its normalized key. */
int store_save(store *s, const char *name) {
  if (s->count >= 64) return -1;
  format_key(name, s->keys[s->count], sizeof s->keys[0]);
  return s->count++;
}

/* Looks a record up by name. */
int store_load(const store *s, const char *name) {
  char key[32];
  format_key(name, key, sizeof key);
  for (int i = 0; i < s->count; i++)
    if (strcmp(s->keys[i], key) == 0) return i;
  return -1;
}
