"""Django's own messages in the club's words.

Django's Japanese catalogue says ユーザー名 (username) and このフィールド (this field), and has no
Japanese for Django 6.1's empty choice of a select ("- Select an option -", shown in English
on Japanese pages). The msgids below are Django's own, word for word; the project's catalogue
(``LOCALE_PATHS``, read before Django's) gives them in the club's words: ログイン名, and
「入力してください。」 for a required field. So every page says it alike, error messages and
the admin included. Nothing imports this module: it is here for ``makemessages``, which keeps
in the catalogue only the msgids it finds in the project's files.
"""

from django.utils.translation import gettext_noop

DJANGO_MESSAGES = (
    # django.db.models.fields.BLANK_CHOICE_LABEL: a select's empty choice.
    gettext_noop("- Select an option -"),
    # Django's forms and fields.
    gettext_noop("This field is required."),
    gettext_noop("This field cannot be blank."),
    gettext_noop("This field cannot be null."),
    gettext_noop("Please correct the duplicate data for %(field)s, which must be unique."),
    # django.contrib.auth: the User's login.
    gettext_noop("username"),
    gettext_noop("A user with that username already exists."),
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ "
        "characters."
    ),
    gettext_noop(
        "Enter a valid username. This value may contain only unaccented lowercase a-z and "
        "uppercase A-Z letters, numbers, and @/./+/-/_ characters."
    ),
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
    # django.contrib.admin's sign-in and password reset.
    gettext_noop(
        "Please enter the correct %(username)s and password for a staff account. Note that "
        "both fields may be case-sensitive."
    ),
    gettext_noop("In case you’ve forgotten, you are:"),
)
