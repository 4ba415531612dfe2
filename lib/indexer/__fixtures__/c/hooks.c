/* Allocation hooks with a calling-convention macro between the return type and the name. */
#include <stdlib.h>

#define HOOKS_CDECL __cdecl

static void * HOOKS_CDECL default_malloc(size_t size)
{
    return malloc(size);
}

static void HOOKS_CDECL default_free(void *pointer)
{
    free(pointer);
}

/* A return type no other word could be stays the type. */
HRESULT hooks_status(void)
{
    return 0;
}
