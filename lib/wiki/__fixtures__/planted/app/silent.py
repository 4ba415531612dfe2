"""Loading settings, quietly."""
import json

DEFAULT = {"debug": False}


def load_settings(text):
    """Parse settings, falling back to the defaults."""
    try:
        return json.loads(text)
    except:
        pass
    return dict(DEFAULT)
