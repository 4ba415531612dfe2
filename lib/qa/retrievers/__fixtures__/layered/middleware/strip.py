from core.router import route_context


def strip_slashes(request):
    ctx = route_context(request)
    ctx.path = ctx.path.rstrip("/")
    return ctx
