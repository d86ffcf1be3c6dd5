import pytest

from posenc_site.i18n.slugs import slugify


@pytest.mark.parametrize(
    ("heading", "slug"),
    [
        ("Konum kodlaması", "konum-kodlamasi"),
        ("Dikkat sırayı görmez", "dikkat-sirayi-gormez"),
        ("İçindekiler ve Şekiller", "icindekiler-ve-sekiller"),
        ("Değişmez değil, eşdeğişken", "degismez-degil-esdegisken"),
        ("Çıktı: ÖĞÜ", "cikti-ogu"),
        ("Attention does not see order", "attention-does-not-see-order"),
    ],
)
def test_turkish_letters_survive(heading, slug):
    assert slugify(heading, "-") == slug
