import time


def timer(request):
    request.started = time.time()
    return request
