"""Every page, in both languages, has a description of 50 to 160 characters in its front matter."""

from support.pages import ALL_PAGES, front_matter, source_of


def test_every_page_in_both_languages_has_a_description_in_its_front_matter():
    for path in ALL_PAGES:
        description = front_matter(source_of(path)).get("description")
        assert isinstance(description, str), source_of(path)
        assert 50 <= len(description) <= 160, (source_of(path), len(description))
