from core.router import route_context
from api.util import normalize


def clean_path(request):
    ctx = route_context(request)
    ctx.path = normalize(ctx.path)
    return ctx
