"""User service: loads users through a repository and caches them."""
import logging
import os.path as osp, sys
from dataclasses import dataclass, field
from typing import Optional

from . import errors
from ..db.session import Session, transaction as tx

logger = logging.getLogger(__name__)
_cache: dict = {}
_hits = 0
MAX_USERS, MIN_USERS = 100, 1


class UserNotFound(errors.NotFound):
    """Raised when a user id is unknown."""


@dataclass(frozen=True)
class User:
    id: int
    name: str
    tags: list = field(default_factory=list)


class UserService(BaseService, metaclass=Registry):
    """Looks users up by id.

    Results are cached in the module-level ``_cache``.
    """

    class Config:
        ttl = 60

        def describe(self) -> str:
            return f"ttl={self.ttl}"

    def __init__(self, session: Session, *, strict: bool = False) -> None:
        super().__init__(session)
        self.session = session
        self.strict = strict
        self._seen = set()

    @property
    def size(self) -> int:
        """Number of cached users."""
        return len(_cache)

    @staticmethod
    def normalize(name):
        return name.strip().lower()

    def get(self, user_id: int) -> User:
        global _hits
        if user_id in _cache:
            _hits += 1
            return _cache[user_id]
        row = self.session.query(User).get(user_id)
        if row is None:
            logger.warning("user %s not found", user_id)
            raise UserNotFound(f"no user {user_id}")
        _cache[user_id] = row
        self._seen.add(user_id)
        return row

    def load_all(
        self,
        ids: list[int],
        strict: Optional[bool] = None,
    ) -> list[User]:
        def fetch(i):
            return self.get(i)

        return [fetch(i) for i in ids]

    def reset(self, stats):
        try:
            _cache.clear()
        except KeyError:
            raise
        stats["resets"] = 0
        self.counters["resets"] += 1
        raise errors.ServiceError("reset " + "failed")


def _make_key(*parts: str, sep: str = ":") -> str:
    return sep.join(parts)
