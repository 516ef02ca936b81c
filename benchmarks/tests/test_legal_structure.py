"""The positive structure report (``benchmarks.legal_structure``) and the reference it
checks against (``benchmarks.legal_oracle``), on small hand-made laws whose chains and
counts are worked out by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import legal_oracle as oracle
from benchmarks import legal_structure as ls
from benchmarks.legal_oracle import Unit
from langchain_asesoria.models import SectionSpan

LAW = "Ley 1/2000, de prueba"


@pytest.mark.parametrize(
    ("line", "kind", "number"),
    [
        ("Artículo 5. Objeto.", "artículo", "5"),
        ("**Artículo 3.**", "artículo", "3"),
        ("##### Artículo\u00a01.\u2003Objeto.", "artículo", "1"),  # NBSP and em space
        ("Art. 5.", "artículo", "5"),
        ("Arts. 48 a 50.", "artículo", "48-50"),
        ("Artículo 511-1. Objeto.", "artículo", "511-1"),
        ("Artículo 4.11-1", "artículo", "4.11-1"),
        ("Artículo 106 quáter. Tipo.", "artículo", "106quater"),
        ("Artículo 2.bis.", "artículo", "2bis"),
        ("Artículo 8 quarter. Autorización.", "artículo", "8quarter"),  # misspelt
        ("Artículo 197 sexiens. De las pólizas.", "artículo", "197sexiens"),
        ("Artículo 7 Definiciones.", "artículo", "7"),
        ("ANEXO. Primer Plan de Actuación", "anexo", ""),  # a bare ANEXO joined to its name
        ("ANEXO. 1. La Fuerza del Ejército de Tierra", "anexo", ""),
        ("Disposición final primera primera.", "disposición final", "1"),
        ("Artículo 33-bis.", "artículo", "33bis"),
        ("Artículo único. Aprobación.", "artículo", "u"),
        ("Artículo decimotercero. Salvaguarda.", "artículo", "13"),
        ("Artículo treinta y dos.", "artículo", "32"),
        ("Artículo ciento treinta y uno.", "artículo", "131"),
        ("Artículos dieciséis a veinticinco.", "artículo", "16-25"),
        # misspelt in the BOE's own texts: a lawyer still reads the unit
        ("Diposición derogatoria única. Derogación.", "disposición derogatoria", "u"),
        ("Disposición degoratoria única. Derogación normativa.", "disposición derogatoria", "u"),
        ("Dsposición adicional tercera.", "disposición adicional", "3"),
        ("Disposicón final segunda.", "disposición final", "2"),
        # a plural heading that names its disposiciones heads them, as "Artículos 9 a 12"
        ("Disposiciones adicionales primera y segunda.", "disposición adicional", "1-2"),
        ("Disposiciones transitorias primera a quinta.", "disposición transitoria", "1-5"),
        ("Disposiciones final tercera. Entrada en vigor.", "disposición final", "3"),
        ("TÍTULO I bis", "título", "1bis"),
        ("TÍTULO PRELIMINAR", "título", "p"),
        ("TÍTULO Ill", "título", "3"),  # ells written for capital Is
        ("CAPÍTULO III", "capítulo", "3"),
        ("CAPITULO IV. Base imponible", "capítulo", "4"),
        ("Libro primero", "libro", "1"),
        ("Sección primera.", "sección", "1"),
        ("Sección 1.ª De los derechos", "sección", "1"),
        ("Sección 1.a", "sección", "1"),
        ("Sección 1.", "sección", "1"),
        ("*Sección 2.ª*", "sección", "2"),
        ("Subsección 2.ª Estimación directa", "subsección", "2"),
        ("Disposición adicional decimotercera.", "disposición adicional", "13"),
        ("Disposición final única. Entrada en vigor.", "disposición final", "u"),
        ("DISPOSICIÓN DEROGATORIA", "disposición derogatoria", ""),
        ("ANEXO", "anexo", ""),
        ("ANEXO SEGUNDO", "anexo", "2"),
        ("ANEXO II. Tarifas", "anexo", "2"),
        ("ANEXO. Estatutos de la Federación", "anexo", ""),
        ("ANEXO. IV Plan para la igualdad de género", "anexo", ""),  # a name after it
        ("ANEXO IV. Plan para la igualdad", "anexo", "4"),
        # an instrucción técnica by its code, its spelling aside
        ("INSTRUCCIÓN IF-01", "instrucción técnica", "if01"),
        ("INSTRUCCIÓN IF-01. TERMINOLOGÍA", "instrucción técnica", "if01"),  # a path element
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA NÚMERO 12", "instrucción técnica", "12"),
        ("Instrucción técnica complementaria número 19", "instrucción técnica", "19"),
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA EA - 01", "instrucción técnica", "ea01"),
        (
            "## INSTRUCCIÓN TÉCNICA COMPLEMENTARIA ITC EP\u20133. Refinerías",
            "instrucción técnica",
            "itcep3",
        ),
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA MI-IP02 «PARQUES»", "instrucción técnica", "miip02"),
        ("INSTRUCCION MIG-R.5.1.1", "instrucción técnica", "migr.5.1.1"),
        ("ITC-BT-01", "instrucción técnica", "bt01"),  # its abbreviation, alone
        ("ITC-BT-01. TERMINOLOGÍA", "instrucción técnica", "bt01"),  # its path element
        ("ITC. MIE. S. M. 02.0.01", "instrucción técnica", "mie.s.m.02.0.01"),
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA 12.0.01", "instrucción técnica", "12.0.01"),
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA (ITC) BT-52", "instrucción técnica", "bt52"),
        (
            "# Instrucción Técnica Complementaria MIE-AEM-3 del Reglamento de Aparatos",
            "instrucción técnica",
            "mieaem3",
        ),
    ],
)
def test_the_oracle_reads_a_units_label_whatever_its_spelling(
    line: str, kind: str, number: str
) -> None:
    assert oracle.unit_of(line) == Unit(kind, number)


@pytest.mark.parametrize(
    "line",
    [
        "Artículo 5 de esta Ley establece que el plazo es de un mes.",
        "«Artículo 20. Hecho imponible.",  # quoted: the amended law's, never a unit
        "“TÍTULO III. Mercado",
        "DISPOSICIONES FINALES",  # a group heading, no unit
        "Disposiciones adicionales y transitorias",
        "Dispensación de medicamentos",  # a word near "disposición" is no misspelling
        "Títulos valores y otros activos",
        "El anexo I recoge las tarifas.",
        "Instrucción 3/2005, de 7 de abril, de la Junta Electoral Central.",
        "Instrucción de 12 de marzo de 2020, de la Dirección General de los Registros.",
        "Instrucción MIG-R.7.1. Estaciones de regulación y/o medida.",  # a list's item
        "INSTRUCCIÓN DE CONTABILIDAD PARA LA ADMINISTRACIÓN GENERAL DEL ESTADO",
        "INSTRUCCIÓN SOBRE NORMAS 2 DEL REGLAMENTO",
        "ITC-MIG-6.1 Acometidas de gas en alta presión.",  # an item of a list
        "ITC MIE-AG 1.\u2013Quemadores a gas fabricados en serie.",
        "Instrucción técnica complementaria número 3 de este Reglamento establece…",
        "",
    ],
)
def test_what_the_oracle_reads_as_no_unit(line: str) -> None:
    assert oracle.unit_of(line) is None


def test_group_and_preamble_labels() -> None:
    assert oracle.group_heading("DISPOSICIONES ADICIONALES")
    assert oracle.group_heading("Disposiciones transitorias y finales")
    assert not oracle.group_heading("Disposición adicional primera.")
    assert oracle.preamble_label("EXPOSICIÓN DE MOTIVOS")
    assert oracle.preamble_label("PREÁMBULO")


def test_path_units_reads_a_paths_units_the_laws_title_aside() -> None:
    path = (LAW, "TÍTULO I. Objeto", "CAPÍTULO II", "Sección 1.ª Régimen", "Artículo 5. Tipo.")
    assert oracle.path_units(path) == (
        Unit("título", "1"),
        Unit("capítulo", "2"),
        Unit("sección", "1"),
        Unit("artículo", "5"),
    )
    assert oracle.path_units((LAW, "DISPONGO:", "Notas del editor")) == ()
    assert oracle.counted((Unit("título", "1"), Unit("artículo", "5")))
    assert oracle.counted((Unit("disposición final", "1"),))
    assert not oracle.counted((Unit("título", "1"), Unit("capítulo", "2")))


#: A plain-line law: TÍTULO and CAPÍTULO with their names on the next line, Secciones
#: spelled two ways, a group, disposiciones, an ANEXO holding articles of its own.
PLAIN = (
    "\n\n".join(
        [
            "Ley 1/2000, de prueba",
            "EXPOSICIÓN DE MOTIVOS",
            "El legislador explica la ley.",
            "TÍTULO I",
            "Disposiciones generales",
            "CAPÍTULO I",
            "Objeto",
            "Artículo 1. Objeto.",
            "Esta ley regula el impuesto.",
            "Sección primera. Del hecho imponible",
            "Artículo 2. Hecho.",
            "Está sujeta la entrega de bienes.",
            "Sección 2.ª De la base",
            "Artículo 3. Base.",
            "La base es el importe: 100 €.",
            "CAPÍTULO II",
            "Artículo 4. Tipo.",
            "El tipo es del 21 por ciento.",
            "DISPOSICIONES ADICIONALES",
            "Disposición adicional primera. Régimen.",
            "Texto de la disposición.",
            "Disposición final única. Entrada en vigor.",
            "Entra en vigor mañana.",
            "ANEXO",
            "Artículo 1. Del anexo.",
            "Texto del anexo.",
        ]
    )
    + "\n"
)


def _at(text: str, needle: str) -> int:
    return text.index(needle)


@pytest.mark.parametrize(
    "signature",
    [
        "Madrid, 10 de diciembre de 2009.\u2013La Ministra de Defensa, Carme Chacón Piqueras.",
        "### Palacio de la Zarzuela, Madrid, a 29 de mayo de 1984",
        "Dado en Madrid, el 16 de noviembre de 2007.",
    ],
)
def test_a_signature_ends_the_laws_last_disposicion(signature: str) -> None:
    """Signed (the signer after a dash, or the place and date set as a heading), the law's
    provisions end: the text annexed after it without an ANEXO heading is in no unit."""
    text = (
        "Artículo 1. Objeto.\n\nTexto.\n\nDisposición final única. Entrada en vigor.\n\n"
        f"Entra en vigor mañana.\n\n{signature}\n\nNORMAS DEL PROCESO\n\nEl texto anexo.\n"
    )
    source = oracle.read_source(text)
    assert source.chain_at(_at(text, "Entra en vigor")) == (Unit("disposición final", "u"),)
    assert source.chain_at(_at(text, "El texto anexo")) == ()


@pytest.mark.parametrize(
    "note",
    [
        "### **(Derogada)**",
        "> Se añade por el art. único.2 de la Ley Orgánica 1/1999.",
        "### (de conformidad con el apartado 3 del artículo 5 de la Directiva 2005/36/CE)",
    ],
)
def test_a_note_after_a_units_heading_is_its_text_not_its_name(note: str) -> None:
    """A note in brackets (marked as a heading or not) or a quoted BOE note after a
    unit's heading is that unit's text: the reference reads no heading there."""
    text = f"# Ley\n\n#### Sección 2.ª Funcionamiento\n\n{note}\n\n##### Artículo 19.\n\nT.\n"
    source = oracle.read_source(text)
    line = next(line for line in source.lines if line.text == note)
    assert not line.heading
    assert source.body_start(0, len(text)) == text.index(note)


@pytest.mark.parametrize(
    ("heading", "names"),
    [
        ("CAPÍTULO III", True),
        ("CAPÍTULO III bis", True),
        ("ANEXO III A)", True),
        ("ANEXO NÚMERO 2", True),
        ("Sección 1.ª", True),
        ("#### Sección 1.ª Ejercicios", False),  # named already (BOE-A-2007-14726)
        ("CAPÍTULO I. Objeto", False),
    ],
)
def test_the_line_after_a_units_number_alone_is_its_name(heading: str, names: bool) -> None:
    """Only after a unit's number alone is the next line its name (a heading line); after
    a unit already named, a line without a final period is its text."""
    line = "Al término de los cursos se celebrará un examen escrito u oral"
    text = f"# Ley\n\n{heading}\n\n{line}\n\n##### Artículo 19.\n\nT.\n"
    source = oracle.read_source(text)
    assert next(found for found in source.lines if found.text == line).heading is names


def test_a_subdivisions_rubric_is_a_heading_line() -> None:
    """ "Epígrafe A. Forma de realizarlo" under a Sección names what follows (a lawyer
    reads a heading); a sentence that mentions an epígrafe is text."""
    rubric, sentence = "Epígrafe A. Forma de realizarlo", "El epígrafe A. se aplica."
    text = f"# Ley\n\n#### Sección 2.ª Apeo\n\n{rubric}\n\n{sentence}\n"
    lines = {line.text: line.heading for line in oracle.read_source(text).lines}
    assert lines[rubric] is True
    assert lines[sentence] is False


def _headings(text: str) -> dict[str, bool]:
    return {line.text: line.heading for line in oracle.read_source(text).lines}


def test_a_forms_closing_lines_marked_as_headings_in_a_quotation_are_text() -> None:
    """A certificate quoted in a rule ends with its place, date and signature, which the
    Markdown marks ``###`` ("### En ….., a …. de …", "### Firma»", BOE-A-2011-12561): a
    lawyer reads the form's lines, not headings. A quoted unit heading stays a heading,
    and a marked line outside any quotation too."""
    place, signature = "### En ..............., a....... de........ de.......", "### Firma»"
    text = (
        f"# Orden\n\n##### Regla 35. Formulación.\n\n1. Con el siguiente contenido:\n\n"
        f"«Don/Doña ........ (nombre), jefe de contabilidad.\n\n{place}\n\n{signature}\n\n"
        "2. Se modifica la Ley 1/2000:\n\n«## CAPÍTULO II\n\n### Ejercicios»\n\n"
        "### Otras reglas\n\nTexto.\n"
    )
    lines = _headings(text)
    assert lines[place] is False
    assert lines[signature] is False
    assert lines["«## CAPÍTULO II"] is True
    assert lines["### Otras reglas"] is True


def test_a_forms_fields_in_capitals_are_text() -> None:
    """A record's fields in capitals with their size ("CÓDIGO POSTAL (5 N)", "NIF DEL
    CÓNYUGE (9 X)", BOE-A-1999-14374) are a form's lines, not rubrics; a rubric in
    capitals is still a heading."""
    text = (
        "# Orden\n\nANEXO I\n\nDATOS POSTALES\n\nCÓDIGO POSTAL (5 N)\n\n"
        "APARTADO DE CORREOS (5 N)\n\nNIF DEL CÓNYUGE (9 X)\n\nTexto.\n"
    )
    lines = _headings(text)
    assert lines["CÓDIGO POSTAL (5 N)"] is False
    assert lines["NIF DEL CÓNYUGE (9 X)"] is False
    assert lines["DATOS POSTALES"] is True


def test_a_forms_blanks_are_text_in_capitals_or_marked() -> None:
    """A form's fields with blanks to fill ("NIF/CIF ……", "CARGO: ……", BOE-A-2005-17421)
    and its place and date marked ``###`` outside any quotation ("### En ……, a … de …",
    BOE-A-2014-6123) are the form's lines, not headings."""
    fields = ("NIF/CIF ...................", "CARGO: .....................")
    place = "### En ....................... a ........ de ........ de ......."
    text = f"# Orden\n\nANEXO I\n\nDATOS DEL TITULAR\n\n{fields[0]}\n\n{fields[1]}\n\n{place}\n"
    lines = _headings(text)
    assert not any(lines[line] for line in (*fields, place))
    assert lines["DATOS DEL TITULAR"] is True


def test_an_index_of_numbered_lines_in_capitals_is_text() -> None:
    """Numbered lines in capitals one after the other with no text between ("2.1
    DISEÑO DEL REGISTRO…", "2.2 DISEÑO…", BOE-A-2007-13223) are an index, a list a
    lawyer reads as text; one such line with text after it is a rubric."""
    entries = [f"2.{n} DISEÑO DEL REGISTRO DE TIPO {n} (TIPO-{n})" for n in (1, 2, 3)]
    text = "# Orden\n\nANEXO XII\n\n2. DISEÑO DE REGISTRO\n\n" + "\n\n".join(entries)
    text += "\n\nTexto.\n\nANEXO XIII\n\n3.1 VALIDACIONES\n\nTexto de las validaciones.\n"
    lines = _headings(text)
    assert [lines[entry] for entry in entries] == [False, False, False]
    assert lines["3.1 VALIDACIONES"] is True


def test_a_list_in_capitals_is_text() -> None:
    """Three or more lines in capitals one after the other (a list of municipalities, a
    legend's "C = VAPOR CARBÓN", BOE-A-2022-23045, BOE-A-2006-5807) are a list a lawyer
    reads as text; an instruction's title and its name in capitals before a marked
    "### ÍNDICE" are still headings (BOE-A-2019-15228)."""
    items = ["C = VAPOR CARBÓN", "F = VAPOR FUEL", "D = DIÉSEL", "TG = TURBINA DE GAS"]
    text = "# Orden\n\nANEXO I\n\nValores de los parámetros\n\n" + "\n\n".join(items)
    text += "\n\nFin de la tabla.\n\nINSTRUCCIÓN IF-05\n\nDISEÑO Y CONSTRUCCIÓN"
    text += "\n\n### ÍNDICE\n\n1. Normas.\n"
    lines = _headings(text)
    assert [lines[item] for item in items] == [False] * 4
    assert lines["INSTRUCCIÓN IF-05"] is True
    assert lines["DISEÑO Y CONSTRUCCIÓN"] is True


def test_a_forms_check_boxes_marked_as_a_heading_are_text() -> None:
    """ "### **Sí** □ **No** □" (BOE-A-2015-12529) is a form's line, not a heading."""
    boxes = "### **Sí** □ **No** □"
    lines = _headings(f"# Circular\n\n### COMISIÓN DE CONTROL\n\n{boxes}\n\nTexto.\n")
    assert lines[boxes] is False
    assert lines["### COMISIÓN DE CONTROL"] is True


@pytest.mark.parametrize(
    ("number", "line", "after", "names"),
    [
        # a long sentence (an article, a verb, a period) is the ANEXO's text, not its name
        (
            "ANEXO II",
            "Los límites autorizados para adquirir compromisos de gasto con cargo a "
            "ejercicios futuros se considerarán ampliados por los gastos de gestión y "
            "administración de la concesión de avales del sexto tramo, conforme a lo "
            "dispuesto en el anexo I del presente acuerdo.",
            "El Ministerio atenderá los siguientes importes.",
            False,
        ),
        # the first of a list of norms (BOE-A-1993-5628) is the list's, not a name
        (
            "CAPÍTULO II",
            "Real Decreto 2551/1994, de 29 de diciembre, por el que se establecen las "
            "condiciones de sanidad animal.",
            "Reglamento (CE) n.º 1774/2002 del Parlamento Europeo y del Consejo, de 3 de "
            "octubre de 2002, por el que se establecen las normas sanitarias.",
            False,
        ),
        # the title of the text an ANEXO annexes is its name, however long
        (
            "ANEXO",
            "Acuerdo del Consejo de Ministros de 12 de marzo de 2020, por el que se "
            "establecen las condiciones de los avales de la línea para empresas y "
            "autónomos afectados por las consecuencias económicas del COVID-19.",
            "Primero. Las condiciones serán las siguientes.",
            True,
        ),
        ("CAPÍTULO III", "De la protección del dominio público hidráulico", "Texto.", True),
        # a lead-in, a list's first item, a quotation, a form's blanks: text (es-cl,
        # BOE-A-2001-24965, BOE-A-2021-7053, BOE-A-2016-7563); a number, a capital
        # letter, a quoted name or one blank may open or stand in a name
        ("ANEXO", "Los límites del Parque Natural son los que se describen:", "Norte.", False),
        ("ANEXO II", "A.\u2003Procedimientos ambulatorios", "Texto.", True),  # a part's name
        ("CAPÍTULO I", "01. Tasa por dirección e inspección de obras", "Texto.", True),
        ("CAPÍTULO III", "«Los Caminos a Santiago»", "Texto.", True),  # a quoted name
        ("ANEXO V", "Importes para los productos del Reglamento (UE) n.º 2017/....", "T.", True),
        ("ANEXO XIV", "Necesidades de financiación para el ejercicio FEAGA: 20………", "T.", True),
        (
            "ANEXO II",
            "a) El equipo transceptor estará basado en sistemas satelitales.",
            "T.",
            False,
        ),
        ("ANEXO 1", "Dos. El anexo 2 de la disposición adicional queda redactado.", "T.", False),
        ("ANEXO", "Nota 1 del anexo. El apartado 4 se refiere a los procedimientos.", "T.", False),
        ("ANEXO", "«El Consejo Europeo aprobó el programa.", "Texto.", False),
        ("ANEXO B", "................, ....... de ................. de ......", "T.", False),
        # a form's field with its blank a line long (BOE-A-2000-19137)
        (
            "### SECCIÓN A",
            "Nombre y dirección del expedidor ..............................",
            "T.",
            False,
        ),
        # a name and a sentence run into it (BOE-A-2008-13682)
        (
            "Capítulo I",
            "1. Principios generales. El objetivo de los estudios descritos en esta parte "
            "consiste en demostrar o confirmar la eficacia del medicamento veterinario "
            "inmunológico y en dar cuenta de las declaraciones del solicitante.",
            "T.",
            False,
        ),
        # a long sentence that opens with a preposition (BOJA-b-2020-90135)
        (
            "ANEXO I",
            "A efectos de lo dispuesto en el artículo 22 del presente decreto-ley, para "
            "determinar la asignación a cada entidad local se ha distribuido la dotación "
            "total de este Programa entre los municipios y entidades locales autónomas.",
            "Texto.",
            False,
        ),
    ],
)
def test_the_line_after_a_bare_number_is_no_name_when_it_is_text(
    number: str, line: str, after: str, names: bool
) -> None:
    """After a unit's number alone, a sentence (opening with an article, ending with a
    period, a paragraph long) or the first of a list of norms is text, as a lawyer reads
    it; a name, even an annexed text's whole title, is still the unit's name."""
    text = f"# Resolución\n\n{number}\n\n{line}\n\n{after}\n"
    assert _headings(text)[line] is names


def test_chain_at_is_the_chain_of_units_in_force() -> None:
    source = oracle.read_source(PLAIN)
    title, chapter = Unit("título", "1"), Unit("capítulo", "1")
    assert source.chain_at(_at(PLAIN, "El legislador")) == ()
    assert source.chain_at(_at(PLAIN, "Esta ley regula")) == (title, chapter, Unit("artículo", "1"))
    assert source.chain_at(_at(PLAIN, "Está sujeta")) == (
        title,
        chapter,
        Unit("sección", "1"),
        Unit("artículo", "2"),
    )
    # A Sección closes the one before it.
    assert source.chain_at(_at(PLAIN, "La base es")) == (
        title,
        chapter,
        Unit("sección", "2"),
        Unit("artículo", "3"),
    )
    # A CAPÍTULO closes the Sección of the CAPÍTULO before.
    assert source.chain_at(_at(PLAIN, "El tipo es")) == (
        title,
        Unit("capítulo", "2"),
        Unit("artículo", "4"),
    )
    # A disposición closes every unit of the articulado; a group holds no unit.
    assert source.chain_at(_at(PLAIN, "Texto de la disposición")) == (
        Unit("disposición adicional", "1"),
    )
    assert source.chain_at(_at(PLAIN, "Entra en vigor")) == (Unit("disposición final", "u"),)
    # An ANEXO closes everything and holds what follows it.
    assert source.chain_at(_at(PLAIN, "Texto del anexo")) == (
        Unit("anexo", ""),
        Unit("artículo", "1"),
    )


def test_a_title_before_the_laws_first_article_is_no_new_text() -> None:
    """ "DISPOSICIONES GENERALES" between the TÍTULO PRELIMINAR and the law's first
    "Artículo 1." (es-md/BOE-A-2016-2870) starts no text of its own, as a title before
    articles that number from 1 again would: nothing numbered before."""
    text = (
        "# Ley\n\nTÍTULO PRELIMINAR\n\nSupresión del Consejo\n\nDISPOSICIONES GENERALES\n\n"
        "Artículo 1. Objeto.\n\nTexto uno.\n\nTÍTULO I\n\nFunciones\n\n"
        "Artículo 2. Naturaleza.\n\nT.\n"
    )
    source = oracle.read_source(text)
    chain = source.chain_at(text.index("Texto uno."))
    assert chain == (Unit("título", "p"), Unit("artículo", "1"))


def test_an_instruccion_tecnica_closes_the_laws_units_and_holds_its_own() -> None:
    text = "\n\n".join(
        [
            LAW, "Artículo único. Aprobación.", "Se aprueba.",
            "Disposición adicional tercera. Seguro.", "El seguro.",
            "INSTRUCCIÓN IF-01", "TERMINOLOGÍA", "### ÍNDICE", "1. Generalidades.",
            "### CAPÍTULO I. Objeto", "Artículo 1. Objeto.", "Esta instrucción regula.",
            "Disposición transitoria única.", "Su régimen.", "ANEXO I", "Modelo de placa.",
            "INSTRUCCIÓN IF-02", "CLASIFICACIÓN", "Los refrigerantes.",
        ]
    )  # fmt: skip
    source = oracle.read_source(text)
    first = Unit("instrucción técnica", "if01")
    assert source.chain_at(_at(text, "1. Generalidades")) == (first,)
    assert source.chain_at(_at(text, "Esta instrucción")) == (
        first,
        Unit("capítulo", "1"),
        Unit("artículo", "1"),
    )
    assert source.chain_at(_at(text, "Modelo de placa")) == (first, Unit("anexo", "1"))
    # its text's disposiciones are its own, as an ANEXO's are
    assert source.chain_at(_at(text, "Su régimen")) == (
        first,
        Unit("disposición transitoria", "u"),
    )
    assert source.chain_at(_at(text, "Los refrigerantes")) == (Unit("instrucción técnica", "if02"),)
    names = [line for line in source.lines if line.text in ("TERMINOLOGÍA", "CLASIFICACIÓN")]
    assert names
    assert all(line.heading for line in names)  # the names are heading lines


def test_an_anexo_with_no_text_of_its_own_holds_the_instrucciones_after_it() -> None:
    text = "\n\n".join(
        [
            LAW, "Artículo único. Aprobación.", "Se aprueba.", "ANEXO I",
            "## Instrucción técnica complementaria MIE-APQ 1 «Líquidos»", "Los líquidos.",
            "ANEXO", "Modelo de placa.",
            "## Instrucción técnica complementaria MIE-APQ 2 «Cloro»", "El cloro.",
        ]
    )  # fmt: skip
    source = oracle.read_source(text)
    annex = Unit("anexo", "1")
    assert source.chain_at(_at(text, "Los líquidos")) == (
        annex,
        Unit("instrucción técnica", "mieapq1"),
    )
    assert source.chain_at(_at(text, "Modelo de placa")) == (
        annex,
        Unit("instrucción técnica", "mieapq1"),
        Unit("anexo", ""),
    )
    assert source.chain_at(_at(text, "El cloro")) == (
        annex,
        Unit("instrucción técnica", "mieapq2"),
    )


def test_body_start_skips_heading_lines_and_names() -> None:
    source = oracle.read_source(PLAIN)
    titulo = _at(PLAIN, "TÍTULO I")
    article = _at(PLAIN, "Artículo 1. Objeto.")
    # "TÍTULO I", its name, "CAPÍTULO I", its name: headings only.
    assert source.body_start(titulo, article) is None
    assert source.body_start(titulo, len(PLAIN)) == _at(PLAIN, "Esta ley regula")
    assert source.body_start(_at(PLAIN, "Sección 2.ª"), len(PLAIN)) == _at(PLAIN, "La base es")


def test_a_heading_inside_a_paragraph_is_text() -> None:
    text = "Ley\n\nArtículo 1. Objeto.\n\nSegún el\nArtículo 2. que sigue, todo.\n"
    source = oracle.read_source(text)
    assert [unit for _, unit, _ in source.headings] == [Unit("artículo", "1")]


QUOTING = (
    "\n\n".join(
        [
            "Ley 2/2020, de reforma",
            "Artículo primero. Modificación de la Ley 1/2000.",
            "Se modifica el artículo 20, que queda redactado así:",
            "«Artículo 20. Hecho imponible.",
            "CAPÍTULO IV",
            "Texto del artículo 20.»",
            "Artículo segundo. Modificación de la Ley 3/2001.",
            "Se añade un artículo 7 bis:",
            "«Artículo 7 bis. Exenciones.",
            "Texto que nunca cierra la comilla.",
            "Artículo 8. También citado.",
            "Texto citado.",
            "Artículo tercero. Entrada en vigor.",
            "Texto propio.",
            "Disposición final única. Vigor.",
            "Ya.",
        ]
    )
    + "\n"
)


def test_quoted_amended_text_is_the_quoting_articles() -> None:
    source = oracle.read_source(QUOTING)
    first, second = Unit("artículo", "1"), Unit("artículo", "2")
    assert source.chain_at(_at(QUOTING, "Texto del artículo 20")) == (first,)
    # A quotation left open: "Artículo 8" is no number of this law (it numbers in words)…
    assert source.chain_at(_at(QUOTING, "Texto citado")) == (second,)
    # …"Artículo tercero" is: its numbering going on ends the quotation.
    assert source.chain_at(_at(QUOTING, "Texto propio")) == (Unit("artículo", "3"),)
    assert source.chain_at(_at(QUOTING, "Ya.")) == (Unit("disposición final", "u"),)
    own = [unit for _, unit, _ in source.headings]
    assert own == [first, second, Unit("artículo", "3"), Unit("disposición final", "u")]


def test_a_quotation_closed_with_the_wrong_mark_ends_at_the_laws_next_article() -> None:
    text = "\n\n".join(
        [
            "Ley 3/2021",
            "Artículo 1. Modificación.",
            "Se modifica así:",
            "“Artículo 5. Caja de Ahorrosˮ",  # the BOE's modifier letter closes it
            "Texto.»",  # a closing mark too many: no quotation left
            "Artículo 2. Otro.",
            "Texto dos.",
        ]
    )
    source = oracle.read_source(text)
    assert source.chain_at(_at(text, "Texto dos")) == (Unit("artículo", "2"),)


def _section(text: str, heading: str, end: str | None, path: tuple[str, ...]) -> SectionSpan:
    start = text.index(heading)
    stop = text.index(end) if end is not None else len(text)
    return SectionSpan(start, stop, path[-1], path, title_end=start + len(heading))


def _items(text: str, sections: list[SectionSpan]) -> list[ls.Item]:
    return [ls.Item(s.start, s.end, s.section_path, text[s.start : s.end]) for s in sections]


SMALL = (
    "\n\n".join(
        [
            LAW,
            "TÍTULO I",
            "Objeto",
            "Sección 1.ª",
            "Artículo 1. Objeto.",
            "Texto uno.",
            "Artículo 2. Ámbito.",
            "Texto dos.",
            "Disposición final única. Vigor.",
            "Texto final.",
        ]
    )
    + "\n"
)


def _small(
    second: tuple[str, ...] = (LAW, "TÍTULO I. Objeto", "Sección 1.ª", "Artículo 2. Ámbito."),
    final: tuple[str, ...] = (LAW, "Disposición final única. Vigor."),
    heading_alone: bool = False,
) -> list[SectionSpan]:
    first_start = "TÍTULO I" if not heading_alone else "Artículo 1. Objeto."
    sections = [
        _section(
            SMALL,
            first_start,
            "Artículo 2.",
            (LAW, "TÍTULO I. Objeto", "Sección 1.ª", "Artículo 1. Objeto."),
        ),
        _section(SMALL, "Artículo 2.", "Disposición final", second),
        _section(SMALL, "Disposición final", None, final),
    ]
    if heading_alone:  # the TÍTULO and its Sección, a section of their own
        sections.insert(
            0, _section(SMALL, "TÍTULO I", "Artículo 1.", (LAW, "TÍTULO I. Objeto", "Sección 1.ª"))
        )
    return sections


def test_measure_items_right_paths() -> None:
    sections = _small()
    law = ls.measure_items(
        "ley.md", oracle.read_source(SMALL), _items(SMALL, sections), sections, LAW
    )
    assert (law.chunks, law.units, law.wrong, law.missed) == (3, 3, 0, 0)
    assert (law.heading_only, law.notes_only, law.unrooted) == (0, 0, 0)
    assert law.headings == 5  # TÍTULO, Sección, two articles, the disposición
    assert not law.any_wrong


def test_measure_items_counts_a_path_missing_a_seccion_as_wrong() -> None:
    sections = _small(second=(LAW, "TÍTULO I. Objeto", "Artículo 2. Ámbito."))
    source = oracle.read_source(SMALL)
    law = ls.measure_items("ley.md", source, _items(SMALL, sections), sections, LAW, show=5)
    assert (law.units, law.wrong, law.missed) == (3, 1, 0)
    assert law.any_wrong
    assert "expected título 1 > sección 1 > artículo 2" in law.examples[0]


def test_measure_items_counts_a_disposicion_under_a_titulo_as_wrong() -> None:
    sections = _small(final=(LAW, "TÍTULO I. Objeto", "Disposición final única. Vigor."))
    source = oracle.read_source(SMALL)
    law = ls.measure_items("ley.md", source, _items(SMALL, sections), sections, LAW)
    assert (law.units, law.wrong) == (3, 1)


def test_measure_items_counts_a_heading_no_section_names_as_missed() -> None:
    # The second article's heading taken for text: the first article's section runs on.
    sections = _small()
    merged = [
        SectionSpan(
            sections[0].start, sections[1].end, "Artículo 1. Objeto.", sections[0].section_path
        ),
        sections[2],
    ]
    source = oracle.read_source(SMALL)
    law = ls.measure_items("ley.md", source, _items(SMALL, merged), merged, LAW)
    assert law.missed == 1
    assert law.any_wrong
    assert law.wrong == 0  # the item's body starts in Artículo 1: its path is right there


def test_a_textless_heading_repeated_is_not_missed() -> None:
    """ "ANEXO IV.a" right before "ANEXO IV.b" (both read as ANEXO 4, images in the BOE's
    page): neither has text of its own, so no path has to name the first."""
    text = (
        f"# {LAW}\n\nArtículo 1. Objeto.\n\nTexto del artículo.\n\n"
        "ANEXO IV.a\n\nANEXO IV.b\n\nANEXO V\n\nTexto del anexo.\n"
    )
    source = oracle.read_source(text)
    sections = [
        SectionSpan(
            0, text.index("ANEXO IV.a"), "Artículo 1. Objeto.", (LAW, "Artículo 1. Objeto.")
        ),
        SectionSpan(text.index("ANEXO IV.a"), len(text), "ANEXO V", (LAW, "ANEXO V")),
    ]
    law = ls.measure_items("ley.md", source, _items(text, sections), sections, LAW)
    assert law.missed == 0


def test_measure_items_counts_a_chunk_that_is_only_headings() -> None:
    sections = _small(heading_alone=True)
    source = oracle.read_source(SMALL)
    law = ls.measure_items("ley.md", source, _items(SMALL, sections), sections, LAW)
    assert law.heading_only == 1
    assert law.chunks == 4
    assert law.units == 3  # the heading-only chunk is in no article: not counted
    # a last item that is only a heading is not counted (nothing follows to join)
    tail = SMALL + "\nANEXO\n"
    sections = [*_small(), _section(tail, "ANEXO", None, (LAW, "ANEXO"))]
    law = ls.measure_items(
        "ley.md", oracle.read_source(tail), _items(tail, sections), sections, LAW
    )
    assert law.heading_only == 0


def test_a_heading_longer_than_a_chunk_is_counted_apart() -> None:
    """A disposición's heading that does not fit whole in one chunk: the chunk cut inside
    its line is no heading left alone (nothing could join it), and is counted apart."""
    heading = "Disposición final primera. Modificación de la Orden " + "de modelos " * 40
    text = f"# {LAW}\n\n{heading.strip()}\n\nTexto de la disposición.\n"
    cut = text.index("de modelos", 200)
    path = (LAW, heading.strip())
    items = [
        ls.Item(0, cut - 1, path, text[: cut - 1]),
        ls.Item(cut, len(text) - 1, path, text[cut:-1]),
    ]
    sections = [SectionSpan(0, len(text) - 1, heading.strip(), path)]
    law = ls.measure_items("ley.md", oracle.read_source(text), items, sections, LAW)
    assert (law.heading_only, law.long_headings) == (0, 1)


def test_a_chunk_of_headings_alone_is_in_the_unit_its_last_heading_opens() -> None:
    """A TÍTULO and an article whose name is longer than a chunk (BOE-A-2020-11416): the
    chunk cut inside the article's heading line is in that article, as its path says."""
    name = "Prestación extraordinaria de cese de actividad " * 12
    text = f"# {LAW}\n\n## TÍTULO II. Medidas\n\n##### Artículo 13. {name.strip()}\n\nTexto.\n"
    cut = text.index("cese", text.index("Artículo 13.") + 200)
    path = (LAW, "TÍTULO II. Medidas", f"Artículo 13. {name.strip()}")
    start = text.index("## TÍTULO")
    items = [
        ls.Item(start, cut - 1, path, text[start : cut - 1]),
        ls.Item(cut, len(text) - 1, path, text[cut:-1]),
    ]
    sections = [SectionSpan(start, len(text) - 1, path[-1], path)]
    law = ls.measure_items("ley.md", oracle.read_source(text), items, sections, LAW)
    assert (law.units, law.wrong, law.long_headings) == (2, 0, 1)


def test_measure_items_counts_chunks_not_rooted_at_the_title() -> None:
    sections = _small()
    moved = [
        SectionSpan(s.start, s.end, s.section_label, ("Otra ley", *s.section_path[1:]))
        if index == 2
        else s
        for index, s in enumerate(sections)
    ]
    source = oracle.read_source(SMALL)
    law = ls.measure_items("ley.md", source, _items(SMALL, moved), moved, LAW)
    assert law.unrooted == 1
    # Without a front matter title, the first item's root is the title.
    law = ls.measure_items("ley.md", source, _items(SMALL, moved), moved, None)
    assert law.unrooted == 1
    # Case, accents and emphasis aside, the root is the title.
    law = ls.measure_items(
        "ley.md", source, _items(SMALL, sections), sections, "LEY 1/2000, DE PRUEBA"
    )
    assert law.unrooted == 0


def test_measure_items_counts_chunks_of_notes_alone() -> None:
    text = SMALL + "\n> Se modifica el apartado 1 por la Ley 2/2020.\n"
    sections = _small()
    notes_start = text.index("> Se modifica")
    items = [
        *_items(text, sections[:2]),
        ls.Item(
            sections[2].start,
            notes_start,
            sections[2].section_path,
            text[sections[2].start : notes_start],
        ),
        ls.Item(notes_start, len(text), sections[2].section_path, text[notes_start:]),
    ]
    law = ls.measure_items("ley.md", oracle.read_source(text), items, sections, LAW)
    assert law.notes_only == 1


def test_total_and_shares() -> None:
    right = ls.LawStructure("a.md", chunks=10, units=8, headings=4)
    wrong = ls.LawStructure("b.md", chunks=10, units=2, wrong=1, missed=1, headings=4, unrooted=1)
    summed = ls.total([right, wrong])
    assert (summed.chunks, summed.units, summed.wrong, summed.missed) == (20, 10, 1, 1)
    share = ls.shares([right, wrong])
    assert share["right"] == pytest.approx(0.9)
    assert share["laws_wrong"] == pytest.approx(0.5)
    assert share["rooted"] == pytest.approx(0.95)
    assert share["found"] == pytest.approx(7 / 8)
    assert ls.shares([]) == {"right": 1.0, "laws_wrong": 0.0, "rooted": 1.0, "found": 1.0}
    row = ls.folder_row("es-pv", [right, wrong])
    assert row.startswith("| es-pv | 2 | 20 | 10 | 90.00% | 1 (50.00%) | 1 of 8 |")
    wrong.folder = "es-pv"
    assert ls.law_row(wrong).startswith("| es-pv/b.md | units 2 | wrong 1 | missed 1 |")


def test_measure_file_reads_a_law_as_the_splitter_does(tmp_path: Path) -> None:
    law = tmp_path / "es-xx" / "BOE-A-2000-1.md"
    law.parent.mkdir()
    # As legalize-es writes a law: front matter, the title as a "#" heading, plain lines.
    law.write_text(f'---\ntitle: "{LAW}"\n---\n# ' + SMALL, encoding="utf-8")
    measured = ls.measure_file(law, chunked=False)
    assert measured.error == ""
    assert measured.folder == "es-xx"
    assert (measured.units, measured.wrong, measured.missed, measured.unrooted) == (3, 0, 0, 0)
    assert measured.heading_only == 0


def test_the_report_runs_on_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "es-xx"
    folder.mkdir()
    (folder / "ley.md").write_text(
        '---\ntitle: "Ley 2/2001, de prueba"\n---\n# Ley 2/2001, de prueba\n\n'
        "TÍTULO I\n\nObjeto\n\nArtículo 1. Objeto.\n\nTexto uno.\n\n"
        "Artículo 2. Ámbito.\n\nTexto dos.\n\nDisposición final única. Vigor.\n\nYa.\n",
        encoding="utf-8",
    )
    (folder / "otra.md").write_text(
        "# Ley 3/2001\n\n##### Artículo 1. Objeto.\n\nTexto uno.\n\n"
        "##### Artículo 2. Ámbito.\n\nTexto dos.\n",
        encoding="utf-8",
    )
    (folder / "ley.html.extracted.md").write_text("# No", encoding="utf-8")
    assert ls.files([folder], (".html",)) == []
    assert [p.name for p in ls.files([folder], (".md",))] == [
        "ley.html.extracted.md",
        "ley.md",
        "otra.md",
    ]
    dump = tmp_path / "dump.tsv"
    argv = [str(folder / "ley.md"), str(folder / "otra.md"), "--sections", "--laws", "all"]
    assert ls.main([*argv, "--dump", str(dump)]) == 0
    out = capsys.readouterr().out
    assert "# 2 laws, sections" in out
    assert (
        "| es-xx/ley.md | units 3 | wrong 0 | missed 0 | heading only 0 | longer than a chunk 0 "
        "| unrooted 0 |" in out
    )
    assert (
        "| es-xx/otra.md | units 2 | wrong 0 | missed 0 | heading only 0 | longer than a chunk 0 "
        "| unrooted 0 |" in out
    )
    assert ls.HEADER in out
    assert "| es-xx | 2 | " in out
    assert "article and disposición sections right: 100.00%" in out
    assert "laws with any wrong path: 0.00%" in out
    rows = dump.read_text(encoding="utf-8").splitlines()
    assert rows == ["es-xx/ley.md\t3\t0\t0\t0\t0\t0\t", "es-xx/otra.md\t2\t0\t0\t0\t0\t0\t"]


def test_a_units_line_with_its_text_run_in_is_text() -> None:
    """ "Art. 321. En la póliza del contrato deberán expresarse…" (BOE-A-1988-18764) opens
    the article and holds its text: a lawyer reads the line; a name, even a long one
    opening with an article, or a marked heading stays a heading."""
    run_in = (
        "Art. 321. En la póliza del contrato deberán expresarse los datos y circunstancias "
        "necesarios para la adecuada identificación de los valores dados en garantía."
    )
    name = "Artículo 8. El plan estatal de protección civil frente al riesgo de accidentes."
    marked = "##### " + run_in.replace("Art.", "Artículo")
    text = f"# Ley\n\n{run_in}\n\n{name}\n\nTexto del artículo.\n\n{marked}\n\nTexto.\n"
    source = oracle.read_source(text)
    lines = {line.text: line for line in source.lines}
    assert lines[run_in].heading is False
    assert lines[run_in].unit == Unit("artículo", "321")
    assert lines[name].heading is True
    assert lines[marked].heading is True
    assert source.body_start(0, len(text)) == text.index(run_in)


@pytest.mark.parametrize(
    "line",
    [
        "### Gi(R1)=PM1 (R1)*PMi(R1)/(PM2 (R1)+PM3(R1))",  # a formula (BOE-A-2015-6203)
        "##### *Reserva Nacional de Saja*.\u2013Está ubicada en la provincia de Santander, "
        "Ayuntamientos de Tresviso, Peñarrubia, Tama, Camaleño, Potes, Vega de Liébana, "
        "Pesaguero, y queda delimitada por la sucesión de linderos que se relaciona a "
        "continuación:",  # a lead-in a paragraph long (BOE-A-1966-9020)
        "LAS INFORMACIONES QUE SE REFLEJAN A CONTINUACIÓN, Y EN LAS QUE SE RECOGEN DATOS "
        "ESTADÍSTICOS DE CIERTAS OPERACIONES, NO TIENEN CARÁCTER DE OFERTA NI COMPROMETEN A "
        "LA ENTIDAD.»",  # BOE-A-2012-9058
        "NOMBRE:\u2003\u2003\u2003\u2003\u2003\u2003FECHA:",  # a form's fields (BOE-A-2022-17105)
    ],
)
def test_marked_or_capital_lines_that_are_text(line: str) -> None:
    """A formula or a long lead-in marked as a heading, a sentence in capitals and a
    form's fields with wide blanks are text, not headings."""
    text = f"# Orden\n\nANEXO I. Datos\n\n{line}\n\nTexto.\n"
    assert _headings(text)[line] is False


def test_headings_that_fill_a_chunk_or_start_inside_a_line_are_counted_apart() -> None:
    """A chunk of headings alone that fills its budget (a disposición's name of 600
    characters under a long law title) or that starts inside a heading's line (the rest
    of an ANEXO's name longer than a chunk) could hold no text: longer than a chunk, not
    heading only."""
    heading = "Disposición final cuarta. Modificación de la Resolución de 27 de octubre"
    text = f"# {LAW}\n\n{heading}\n\nTexto de la disposición.\n"
    at, body = text.index(heading), text.index("Texto")
    cut = heading.index(" de la")  # a cut at a space inside the heading's line
    path = (LAW, heading)
    sections = [SectionSpan(at, len(text) - 1, heading, path)]
    source = oracle.read_source(text)
    for items in (
        [ls.Item(at, body - 2, path, heading, full=True), ls.Item(body, len(text) - 1, path, "T")],
        [
            ls.Item(at, at + cut, path, heading[:cut]),
            ls.Item(at + cut + 1, body - 2, path, heading[cut + 1 :]),
            ls.Item(body, len(text) - 1, path, "T"),
        ],
    ):
        law = ls.measure_items("ley.md", source, items, sections, LAW)
        assert (law.heading_only, law.long_headings) == (0, len(items) - 1), items
    alone = [ls.Item(at, body - 2, path, heading), ls.Item(body, len(text) - 1, path, "T")]
    law = ls.measure_items("ley.md", source, alone, sections, LAW)
    assert (law.heading_only, law.long_headings) == (1, 0)


def test_a_label_before_a_name_longer_than_a_chunk_is_counted_apart() -> None:
    """A unit's number alone ("CAPÍTULO II"; on BOE pages "Artículo segundo.") then a name
    longer than a chunk: the number's chunk is the first piece of a heading no text can
    join, counted with it."""
    name = "Modificación de la Orden de 20 de noviembre de 2000, " + "de los modelos " * 30
    text = f"# {LAW}\n\nCAPÍTULO II\n\n{name.strip()}\n\nTexto del capítulo.\n"
    at, body = text.index("CAPÍTULO II"), text.index("Texto")
    cut = text.index("de los modelos", at + 200)
    path = (LAW, "CAPÍTULO II Modificación")
    items = [
        ls.Item(at, at + len("CAPÍTULO II"), path, "CAPÍTULO II"),
        ls.Item(at + len("CAPÍTULO II") + 2, cut - 1, path, "Modificación…"),
        ls.Item(cut, body - 2, path, "…de los modelos"),
        ls.Item(body, len(text) - 1, path, "Texto del capítulo."),
    ]
    sections = [SectionSpan(at, len(text) - 1, "CAPÍTULO II", path)]
    law = ls.measure_items("ley.md", oracle.read_source(text), items, sections, LAW)
    assert law.heading_only == 0
    assert law.long_headings >= 2


def test_a_list_of_contents_naming_units_is_text() -> None:
    """Three or more units in a row, numbered one after another, nothing between them,
    found again further on (BOE-A-2022-17105's "Contenido:" then "Capítulo 1." …
    "Capítulo 17."): entries of a list, read as text; fewer, or never found again, stay
    units."""
    entries = "".join(f"Capítulo {n}.\u2003Sistema {n}.\n\n" for n in (1, 2, 3))
    text = f"# Orden\n\nANEXO III\n\nContenido:\n\n{entries}### Capítulo 1\n\nTexto.\n"
    headings = _headings(text)
    assert not any(headings[f"Capítulo {n}.\u2003Sistema {n}."] for n in (1, 2, 3))
    assert headings["### Capítulo 1"]
    never_again = text.replace("### Capítulo 1", "### Capítulo 9")
    assert _headings(never_again)["Capítulo 2.\u2003Sistema 2."]
    two = text.replace("Capítulo 3.\u2003Sistema 3.\n\n", "")
    assert _headings(two)["Capítulo 2.\u2003Sistema 2."]


def test_headings_no_title_after_them_can_join_are_counted_apart() -> None:
    """An ANEXO whose name takes most of the budget, then a lettered part's title the
    reference reads as text ("A. El artículo 155 C.E., como garantía… compuesto",
    BOE-A-2017-12328): when that title and one word of its text do not fit in what the
    chunk of headings left, the chunk is longer than a chunk, not heading only; with
    room for them, it is heading only."""
    name = "ACUERDO DEL CONSEJO DE MINISTROS POR EL QUE SE APLICA EL ARTÍCULO 155"
    part = "A. El artículo 155 C.E., como garantía del cumplimiento de las obligaciones"
    text = f"# {LAW}\n\nANEXO\n\n{name}\n\n{part}\n\nEl artículo 155 se integra.\n"
    at, body = text.index("ANEXO"), text.index(part)
    path = (LAW, "ANEXO")
    sections = [SectionSpan(at, len(text) - 1, "ANEXO", path)]
    source = oracle.read_source(text)

    def counts(room: int) -> tuple[int, int]:
        items = [
            ls.Item(at, body - 2, path, text[at : body - 2], room=room),
            ls.Item(body, len(text) - 1, path, text[body:-1]),
        ]
        law = ls.measure_items("ley.md", source, items, sections, LAW, count=_words)
        return law.heading_only, law.long_headings

    needed = _words(f"{part} El")
    assert counts(needed - 1) == (0, 1)
    assert counts(needed) == (1, 0)


def _words(text: str) -> int:
    return len(text.split())


def test_a_units_line_before_the_next_units_carries_its_text() -> None:
    """A short sentence after a unit's label, the next unit's line right after it ("Art.
    936. El padre y la madre heredarán por partes iguales.", then "Art. 937. …"), is the
    unit and its text; a long one whose number holds a period ("Art. 1.057. El testador
    podrá…") too."""
    short = "Art. 936. El padre y la madre heredarán por partes iguales."
    text = f"# {LAW}\n\n{short}\n\nArt. 937. Otro.\n\nTexto.\n"
    assert _headings(text)[short] is False
    assert _headings(text.replace("Art. 937. Otro.", "Texto del anterior."))[short] is True
    seccion = "Sección primera. Los contratos de cultivo."  # its first child next: a name
    held = f"# {LAW}\n\n{seccion}\n\nSubsección primera. Generales\n\nArtículo 1. Texto.\n"
    assert _headings(held)[seccion] is True
    long = "Art. 1.057. El testador podrá encomendar " + "la simple facultad de partir " * 6
    assert oracle.runs_into_text(long.strip() + ".")
