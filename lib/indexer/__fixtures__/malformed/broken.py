import os


def good(path):
    return os.path.exists(path)


def broken(x:
    return x +


class Survivor:
    def method(self):
        self.value = compute()
