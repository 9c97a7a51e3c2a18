"""The terminal client's words as a new player meets them (issue 39): a singer's category agrees
with the card's sex, directors by name (never the engine's id), "between you and Carla" as each
language says it, a free slot offered by default, and the form a prompt expects said again when
an answer does not fit it."""

from __future__ import annotations

import pytest

from impresario import i18n
from impresario.terminal.console import ScriptedConsole
from impresario.terminal.turandot import TurandotScreen, card_text


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use("en")


def screen(answers: list[str], lines: list[str], me: int = 0) -> TurandotScreen:
    feed = iter(answers)
    return TurandotScreen(ScriptedConsole(lambda prompt: next(feed), lines.append),
                          {0: "Tu", 1: "Carla", 2: "Rita"}, me=me)


FEMALE_COMIC = {"kind": "singer", "id": "S20", "category": "comic", "sex": "female", "stars": 2,
                "favourite_role": None}
MALE_COMIC = {**FEMALE_COMIC, "id": "S21", "sex": "male"}


@pytest.mark.parametrize("lang, female, male", [
    ("it", "S20 Comica Femminile ★★", "S21 Comico Maschile ★★"),
    ("en", "S20 comic female ★★", "S21 comic male ★★"),
])
def test_a_singers_category_agrees_with_the_cards_sex(lang, female, male):
    i18n.use(lang)
    assert card_text(FEMALE_COMIC).lower() == female.lower()
    assert card_text(MALE_COMIC).lower() == male.lower()


@pytest.mark.parametrize("lang, name", [("en", "Dark over comic"), ("it", "Dark contro comici"),
                                        ("de", "Dramatisch statt komisch"),
                                        ("fr", "Dramatique contre comique")])
def test_a_director_is_named_never_by_its_id(lang, name):
    i18n.use(lang)
    director = {"kind": "director", "id": "dark_over_comic", "effect": "+1 per dark singer"}
    text = card_text(director)
    assert "dark_over_comic" not in text and text.startswith(name + " (")


@pytest.mark.parametrize("lang, line", [
    ("en", "slot 3: a tie between you and Carla: nobody takes it"),
    ("it", "posizione 3: parità tra te e Carla: non la prende nessuno"),
    ("de", "Platz 3: Gleichstand zwischen dir und Carla: niemand bekommt ihn"),
    ("fr", "place 3 : égalité entre vous et Carla : personne ne la prend"),
])
def test_a_tie_names_you_as_the_language_says_it_after_a_preposition(lang, line):
    i18n.use(lang)
    lines: list[str] = []
    screen([], lines).events([{"type": "slot_tied", "slot": 3, "seats": [0, 1]}])
    assert lines == ["  " + line]


def test_the_nominee_is_named_without_a_gendered_participle():
    i18n.use("it")
    lines: list[str] = []
    screen([], lines).events([{"type": "nominated", "seat": 2}])
    assert lines == ["  il Maestro nomina Rita per licenziare un regista"]


OFFICE_VIEW = {"ruleset": "turandot", "round": 2, "phase": "office", "players": []}


def test_the_slot_offered_by_default_is_one_no_other_seat_just_took():
    """The engine's default gives Carla slot 2 and Rita slot 4; the maestro gives Carla 4:
    Enter for Rita takes the slot left (2), not Carla's."""
    lines: list[str] = []
    actions = {"moves": [{"type": "assign_office", "seats": [1, 2], "slots": [2, 4]}],
               "default": {"type": "assign_office",
                           "assignments": [{"seat": 1, "slot": 2}, {"seat": 2, "slot": 4}]}}
    move = screen(["4", ""], lines).ask(OFFICE_VIEW, actions, None, None)  # type: ignore[arg-type]
    assert move == {"type": "assign_office",
                    "assignments": [{"seat": 1, "slot": 4}, {"seat": 2, "slot": 2}]}
    assert lines[-1].endswith("[Enter: 2] ")


BID_VIEW = {"ruleset": "turandot", "round": 1, "phase": "bidding", "players": []}
BID_ACTIONS = {"moves": [{"type": "bid", "slots": [1, 2, 3, 4, 5], "max_money": 3, "helper": False,
                          "bluff": True}],
               "default": {"type": "bid", "slot": 1, "money": 0}}


@pytest.mark.parametrize("lang, hint", [
    ("en", "type the slot number (1, 2, 3, 4, 5), then the money, 0 to 3"),
    ("it", "scrivi il numero della posizione (1, 2, 3, 4, 5), poi il denaro, da 0 a 3"),
    ("de", "gib die Nummer des Platzes ein (1, 2, 3, 4, 5), dann das Geld, 0 bis 3"),
    ("fr", "tapez le numéro de la place (1, 2, 3, 4, 5), puis l'argent, de 0 à 3"),
])
def test_an_answer_out_of_the_prompts_form_gets_the_form_expected(lang, hint):
    """"9 5" at a bid on five slots with three money cards is not sent to the engine (which
    could only say it did not understand): the prompt says the form it expects and asks again."""
    i18n.use(lang)
    lines: list[str] = []
    move = screen(["9 5", "2 1"], lines).ask(BID_VIEW, BID_ACTIONS, None, None)  # type: ignore[arg-type]
    assert move == {"type": "bid", "slot": 2, "money": 1, "bluff": False, "round": 1}
    assert any(line.startswith("  " + hint) for line in lines), lines


def test_a_refused_cast_is_answered_with_the_form_expected():
    """The cast prompt's form (six ids in role order) is what the session repeats after the
    engine refuses an answer."""
    i18n.use("it")
    lines: list[str] = []
    actions = {"moves": [{"type": "cast", "optimal": ["S01", "S02", "S03", "S04", "S05", "S06"],
                          "optimal_total": 12}], "default": None}
    s = screen(["S01 S02"], lines)
    move = s.ask({**BID_VIEW, "phase": "casting"}, actions, None, None)  # type: ignore[arg-type]
    assert move == {"type": "cast", "roles": ["S01", "S02"]}
    assert s.hint == ("scrivi gli id dei tuoi sei cantanti, uno per ruolo nell'ordine Turandot, "
                      "Calaf, Liù, Ping, Pong, Pang: per esempio S01 S02 S03 S04 S05 S06")


@pytest.mark.parametrize("lang, legend", [
    ("de", "Kontrakte: die Punkte, die mit den in der Versteigerung gebotenen Kontrakten"),
    ("it", "contratti: i punti vinti o persi con i contratti chiamati all'asta;"),
])
def test_muzicandos_final_score_explains_its_columns(lang, legend):
    from impresario.terminal.muzicando import MuzicandoScreen

    i18n.use(lang)
    lines: list[str] = []
    s = MuzicandoScreen(ScriptedConsole(lambda prompt: "", lines.append), {0: "Tu", 1: "Carla"}, me=0)
    s.score({"ruleset": "muzicando", "winners": [0], "teams": [], "players": [  # type: ignore[arg-type]
        {"seat": 0, "lines": {"places": 3, "contracts": 0, "chooser": 2}, "total": 5},
        {"seat": 1, "lines": {"places": 1, "contracts": 0, "chooser": 0}, "total": 1}]})
    assert legend in "\n".join(lines), lines


# Word Jam: whoever calls first is Alì Babà, and the winner may be anyone at the table: the
# terminal names the role, never a pronoun that guesses the player's sex
PRONOUNS = {"en": (" him", " his "), "it": ("di lui",), "de": (" ihm", " ihn", "sein Wort"),
            "fr": ("faites-lui", "l'ont soutenu", "son mot")}


@pytest.mark.parametrize("lang", sorted(PRONOUNS))
def test_word_jam_names_ali_baba_and_the_winner_without_a_pronoun(lang):
    from impresario.terminal.wordjam import HOW_TO_PLAY

    english = [HOW_TO_PLAY,
               "cave column {n}: red {red} (the winner), yellow {yellow} (each who backed the "
               "winner)",
               "Alì Babà's word: {word} ({value} coins). Bet: trust Alì Babà, or join the "
               "Thieves if you can beat the word."]
    i18n.use(lang)
    for source in english:
        text = i18n._(source)
        assert (text == source) == (lang == "en"), (lang, "not translated", source)
        assert not any(p in text for p in PRONOUNS[lang]), (lang, text)
