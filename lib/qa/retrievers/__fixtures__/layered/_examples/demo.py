from core.router import route_context


def demo(request):
    return route_context(request)
