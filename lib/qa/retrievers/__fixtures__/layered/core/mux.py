from core.router import route_context


def mount(request, prefix):
    ctx = route_context(request)
    ctx.prefix = prefix
    return ctx
