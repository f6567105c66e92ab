"""The one shape of an id the backend sends (user, session, room, document): every
feature's schema validates its ids against it."""

ID_PATTERN = r"^[A-Za-z0-9_.@-]{1,128}$"
