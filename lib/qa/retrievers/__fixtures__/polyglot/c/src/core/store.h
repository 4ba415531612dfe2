#ifndef SHOP_STORE_H
#define SHOP_STORE_H

typedef struct store {
  char keys[64][32];
  int count;
} store;

/* Persists a record in the store under its normalized key. */
int store_save(store *s, const char *name);
/* Looks a record up by name. */
int store_load(const store *s, const char *name);

#endif
