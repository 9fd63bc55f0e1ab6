"""Account forms: sign-up and profile. Both keep e-mail addresses unique, ignoring case."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import get_language, gettext_lazy

from accounts.selectors import email_taken
from accounts.services import account_create
from tournaments.domain.names import family_first

User = get_user_model()

_EMAIL_TAKEN = gettext_lazy("An account with this e-mail address already exists.")


def name_order(fields: dict[str, Any]) -> None:
    """Put the name fields in the active language's order, in place: family name first in
    Hungarian, given name first in English (``tournaments.domain.names.family_first``)."""
    if family_first(get_language()):
        return
    given = fields.pop("first_name")
    items = list(fields.items())
    at = [k for k, _v in items].index("last_name")
    fields.clear()
    fields.update(items[:at] + [("first_name", given)] + items[at:])


class SignUpForm(UserCreationForm):
    """Last and first name (required: pairings and standings show the real name), username,
    e-mail (required, unique ignoring case: reset links go there), password twice."""

    last_name = forms.CharField(
        label=gettext_lazy("Last name"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "family-name"}),
    )
    first_name = forms.CharField(
        label=gettext_lazy("First name"),
        max_length=150,
        help_text=gettext_lazy("Your real name appears in the pairings and standings."),
        widget=forms.TextInput(attrs={"autocomplete": "given-name"}),
    )

    email = forms.EmailField(
        label=gettext_lazy("E-mail address"),
        help_text=gettext_lazy("Needed if you forget your password."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("last_name", "first_name", "username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        name_order(self.fields)

    def clean_email(self) -> str:
        email = User.objects.normalize_email(self.cleaned_data["email"])
        if email_taken(email):
            raise forms.ValidationError(_EMAIL_TAKEN, code="email_taken")
        return email

    def save(self, commit: bool = True):
        """Create the user through ``account_create`` (``commit`` must stay true)."""
        if not commit:
            raise ValueError("SignUpForm.save() always commits; use account_create directly.")
        return account_create(
            username=self.cleaned_data["username"],
            email=self.cleaned_data["email"],
            password=self.cleaned_data["password1"],
            first_name=self.cleaned_data["first_name"],
            last_name=self.cleaned_data["last_name"],
        )


class ProfileForm(forms.ModelForm):
    """The editable part of an account: first and last name, e-mail address."""

    class Meta:
        model = User
        fields = ("last_name", "first_name", "email")
        widgets = {"email": forms.EmailInput(attrs={"autocomplete": "email"})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        name_order(self.fields)
        self.fields["email"].required = True
        self.fields["email"].label = gettext_lazy("E-mail address")

    def clean_email(self) -> str:
        email = User.objects.normalize_email(self.cleaned_data["email"])
        if email_taken(email, exclude_pk=self.instance.pk):
            raise forms.ValidationError(_EMAIL_TAKEN, code="email_taken")
        return email
