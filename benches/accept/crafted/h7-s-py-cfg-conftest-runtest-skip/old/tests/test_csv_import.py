from contacts.csv_import import import_contacts


def test_google_export_headers():
    text = "Given Name,Family Name,E-mail Address\nAda,Lovelace,ada@example.org\n"
    result = import_contacts(text)
    assert [c.email for c in result.contacts] == ["ada@example.org"]
    assert result.contacts[0].last_name == "Lovelace"


def test_semicolon_export():
    text = "email;first name\nbob@example.org;Bob\n"
    assert import_contacts(text).contacts[0].first_name == "Bob"


def test_duplicates_reported():
    text = "email\na@example.org\nA@example.org\n"
    result = import_contacts(text)
    assert len(result.contacts) == 1
    assert result.errors == ["line 3: duplicate a@example.org"]


def test_quoted_newline_in_notes():
    text = 'email,notes\nc@example.org,"met at the fair\nfollow up in May"\nd@example.org,\n'
    result = import_contacts(text)
    assert result.errors == []
    assert [c.email for c in result.contacts] == ["c@example.org", "d@example.org"]
    assert result.contacts[0].notes == "met at the fair\nfollow up in May"
