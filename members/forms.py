from django import forms

from members.models import Member


class MemberForm(forms.ModelForm):
    class Meta:
        model = Member
        fields = ["name", "furigana", "is_active", "is_guest", "joined_on", "note"]
        widgets = {"joined_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
