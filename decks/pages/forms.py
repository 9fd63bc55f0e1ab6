"""The deck-check form of the web page: format, pasted list or uploaded .txt file."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from decks.services.validation import decode_upload


class DeckValidateForm(forms.Form):
    """Paste or upload a deck list and pick a format; ``cleaned_data["deck_text"]`` is the list.

    The uploaded file wins over the text box when both are given (the text box may still hold
    the previous list).
    """

    format = forms.ChoiceField(label=_("Format"))
    text = forms.CharField(
        label=_("Deck list"),
        required=False,
        strip=False,
        widget=forms.Textarea(
            attrs={
                "rows": 18,
                "spellcheck": "false",
                "placeholder": _("3 Card name\n2x Other card\nSzabálylap: Rule card name"),
            }
        ),
        help_text=_(
            "One card per line with the number of copies first. Sections: Pakli:, "
            "Kiegészítő pakli:, Szabálylap:, Követő:, Hős: (or Deck:, Sideboard:, Rule card:, "
            "Follower:, Hero:)."
        ),
    )
    file = forms.FileField(
        label=_("…or upload a .txt file"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": ".txt,text/plain"}),
    )

    def __init__(self, *args, format_choices: Sequence[tuple[str, str]] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        format_field = self.fields["format"]
        assert isinstance(format_field, forms.ChoiceField)
        format_field.choices = list(format_choices)

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if not upload:
            return None
        if upload.size > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            raise forms.ValidationError(
                _("The file is too large (at most %(limit)s KB)."),
                code="too_large",
                params={"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024},
            )
        text = decode_upload(upload.read())
        if text is None:
            raise forms.ValidationError(
                _("The file is not a plain text file (UTF-8 or Windows-1250)."), code="not_text"
            )
        return text

    def clean(self):
        cleaned = super().clean()
        text = cleaned.get("file") or cleaned.get("text") or ""
        if "file" not in self.errors and not text.strip():
            raise forms.ValidationError(_("Paste a deck list or choose a file."), code="empty")
        cleaned["deck_text"] = text
        return cleaned
