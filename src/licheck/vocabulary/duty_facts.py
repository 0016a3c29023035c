"""Facts for the duties beyond use and attribution: termination on claims, trademarks, NOTICE
files, latest versions, added terms, guardrails, export controls and FLUX's duties (issue 13).

Each defaults to unknown: whether a licensee sued its licensor, or uses its marks, is never
assumed.  `vocabulary.FACTS` includes them.
"""

from __future__ import annotations

from typing import Final

from licheck.vocabulary.factdefs import FactDef, FactType

# What a claim may allege (ip_claims, group_ip_claims_against_licensor): a misspelt kind would
# match no termination clause.
CLAIMS: Final = frozenset({"patent", "copyright", "other", "outputs"})

DUTY_FACTS: Final = (
    FactDef(
        "ip_claims",
        FactType.SET,
        "what the licensee itself (not its affiliates) has alleged, in litigation or other "
        "proceedings it brought against anyone (a cross-claim or counterclaim included), that "
        "the model (its weights, code, materials, a derivative of it or a contribution to it) "
        "infringes: patent, copyright, other (any other intellectual property or other right "
        "the licensee owns or can license), outputs (that the model's outputs or results "
        "infringe any such right); [] for none (the licenses' termination conditions; may be "
        "stated per model or per license)",
        members=CLAIMS,
    ),
    FactDef(
        "group_ip_claims_against_licensor",
        FactType.SET,
        "the same allegations as ip_claims (patent, copyright, other, outputs) made by the "
        "licensee or any of its affiliates in proceedings brought against the model's "
        'licensor itself (Stability AI: "You or Your Affiliate(s)", against Stability AI '
        "alone); [] for none",
        members=CLAIMS,
    ),
    FactDef(
        "licensor_marks_used",
        FactType.SET,
        "the licenses (by license id) whose licensor's (or its affiliates') trade names, "
        "trademarks, service marks, logos or product names the product, its name or its "
        "marketing uses beyond what that license allows (its own exceptions: describing the "
        "model's origin, describing and redistributing it, reproducing its notices, the "
        'attribution it requires such as "Built with Llama"); [] for none',
        library_ids="license",
    ),
    FactDef(
        "licensor_endorsement_implied",
        FactType.SET,
        "the licenses (by license id) whose licensor the product or its marketing suggests "
        "made, endorsed, approved or validated it, or otherwise misrepresents its relationship "
        "with, without that licensor's written authorization; [] for none",
        library_ids="license",
    ),
    FactDef(
        "upstream_notice_file",
        FactType.BOOLEAN,
        'the model as the licensee received it includes a "NOTICE" text file as part of its '
        "distribution (Apache 2.0 section 4(d); may be stated per model or per license)",
    ),
    FactDef(
        "notice_file_carried",
        FactType.BOOLEAN,
        "distributed copies include a readable copy of the attribution notices of the model's "
        "NOTICE file that pertain to them, in a NOTICE text file, in the source form or "
        "documentation shipped with them, or in a display they generate where such notices "
        "normally appear (Apache 2.0 section 4(d); may be stated per model or per license)",
    ),
    FactDef(
        "latest_version_used",
        FactType.BOOLEAN,
        "the product uses the latest version of the model its licensor has released, or the "
        "licensee makes reasonable efforts to (DBRX 4.1, CreativeML OpenRAIL-M 7): a review's "
        "conclusion; false when an older version is kept without such efforts",
    ),
    FactDef(
        "added_terms_conflict",
        FactType.SET,
        "the licenses (by license id) with which the terms the licensee offers or imposes on "
        "others for the model or its derivatives conflict: they alter, restrict or are "
        "inconsistent with that license, or limit what recipients may do under it; [] for none",
        library_ids="license",
    ),
    FactDef(
        "licensor_disclaimers_carried",
        FactType.BOOLEAN,
        "the terms the licensee imposes on recipients of its derivatives include disclaimer of "
        "warranties and limitation of liability provisions at least as protective of the "
        "licensor as the license's own (FLUX.1 [dev] v1.1.1 2(d)(ii))",
    ),
    FactDef(
        "others_violations_permitted",
        FactType.BOOLEAN,
        "the licensee encourages or permits anyone else (its users, customers or recipients) "
        "to violate the license's terms or its acceptable use policy (Gemma 2.2, Hunyuan 2): a "
        "review's conclusion",
    ),
    FactDef(
        "guardrails_circumvented",
        FactType.BOOLEAN,
        "the licensee bypasses, disables, weakens, removes or circumvents a technical "
        "limitation, safety guardrail (or its hyperparameters), encryption, security, digital "
        "rights management, authentication or usage restriction the licensor put in or around "
        "the model, or enables functionality the model disables (NVIDIA, FLUX.1 [dev] 4(c), "
        "the Llama 3.2+ use policies, Hunyuan Exhibit A item 5)",
    ),
    FactDef(
        "guardrail_substituted",
        FactType.BOOLEAN,
        "every guardrail the licensee circumvented is replaced by a substantially similar one "
        "appropriate for its use case (the NVIDIA Open Model License's exception)",
    ),
    FactDef(
        "proprietary_notices_kept",
        FactType.BOOLEAN,
        "the copyright and other proprietary notices that appear on or in the model are "
        "neither altered nor removed in any copy of it the licensee makes or distributes "
        "(FLUX.1 [dev] 4(b))",
    ),
    FactDef(
        "export_laws_complied",
        FactType.BOOLEAN,
        "the use and distribution of the model comply with applicable U.S. and non-U.S. export "
        "control and trade sanctions laws: no transfer to a prohibited or listed party or "
        "country or for a prohibited purpose, no use or download from a comprehensively "
        "sanctioned jurisdiction or by a listed party, no disguised location (a review's "
        "conclusion)",
    ),
    FactDef(
        "high_risk_use",
        FactType.BOOLEAN,
        "the model or its outputs are used where their failure or fault could reasonably be "
        "anticipated to lead to serious injury of any person (discrimination or a breach of "
        "privacy rights included) or to severe physical, property or environmental damage "
        '(FLUX.1 [dev]\'s "High-Risk Use")',
    ),
    FactDef(
        "risk_mitigation_in_place",
        FactType.BOOLEAN,
        "for a high-risk use, decision-making and risk-mitigation procedures and policies keep "
        "the safety of persons and property at a reasonable, appropriate and lawful level even "
        "if the model fails",
    ),
    FactDef(
        "output_content_filtered",
        FactType.BOOLEAN,
        "content filters that prevent unlawful or infringing content are implemented and "
        "maintained for the use of the model, or every output is reviewed for such content "
        "before it is distributed, displayed or transmitted (FLUX.1 [dev] v1.1.1 2(e)(i))",
    ),
    FactDef(
        "machine_content_labelled",
        FactType.BOOLEAN,
        "information or content generated with the model (text, images, code, posts, "
        "articles, bot-generated posts) that the product generates or disseminates and places "
        "in any public context is expressly and conspicuously identified as machine generated "
        "(Tencent Hunyuan's Acceptable Use Policy item 12; true where the product places none "
        "in public)",
    ),
    FactDef(
        "ai_disclosure_included",
        FactType.BOOLEAN,
        "outputs carry the disclosure (or other indication) that they were generated or "
        "modified with AI that applicable law requires (true where no law requires one)",
    ),
)
