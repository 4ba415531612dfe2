def normalize(path):
    return "/" + path.strip("/")
