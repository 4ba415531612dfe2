#include "../core/store.h"
#include "../core/util.h"

/* Creates the record a request describes. */
int handle_create(store *s, const char *name) {
  return store_save(s, name);
}

/* Returns the record a request names. */
int handle_lookup(const store *s, const char *name) {
  char key[32];
  format_key(name, key, sizeof key);
  return store_load(s, key);
}
