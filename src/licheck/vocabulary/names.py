"""The shared vocabulary of fact names in which licenses and manifests meet.

Every condition in a rule file and every fact in a manifest names a fact defined here; `licheck
facts` prints them, and the table of docs/facts.md is `licheck facts --format markdown` (a test
keeps the two in step).
"""

from __future__ import annotations

from typing import Final

from licheck.core.units import Dimension
from licheck.vocabulary.factdefs import FactDef, FactType

# What a claim may allege (ip_claims, group_ip_claims_against_licensor): a misspelt kind would
# match no termination clause.
CLAIMS: Final = frozenset({"patent", "copyright", "other", "outputs"})


def _facts(*defs: FactDef) -> dict[str, FactDef]:
    return {d.name: d for d in defs}


FACTS: Final = _facts(
    FactDef(
        "mau",
        FactType.QUANTITY,
        "monthly active users of the product or service: the whole commercial product or "
        "service the model is used for (a share apportioned to the model only as at_least)",
        Dimension.COUNT,
    ),
    FactDef(
        "monthly_revenue",
        FactType.QUANTITY,
        "the revenue per month of the product or service: the whole commercial product or "
        "service the model is used for, not a share apportioned to the model (such a share "
        "only as at_least); a manifest may state annual revenue or ARR (e.g. 2B USD ARR) or "
        "another currency with its rate",
        Dimension.MONEY,
        1,
    ),
    FactDef(
        "commercial",
        FactType.BOOLEAN,
        "the product or service is commercial; where not stated, derived true from revenue "
        "above zero (monthly_revenue, annual_recurring_revenue) or paid: true",
    ),
    FactDef(
        "paid",
        FactType.BOOLEAN,
        "the product or service is offered for a fee (a paid plan, a subscription, metered "
        "API pricing); true implies commercial",
    ),
    FactDef(
        "ui_attribution",
        FactType.SET,
        "the names displayed prominently on the product's user interface",
    ),
    FactDef(
        "attribution_elsewhere",
        FactType.SET,
        "names displayed on a related website, about page, blog post or documentation",
    ),
    FactDef(
        "model_name",
        FactType.STRING,
        "the name under which a derived model is distributed or made available",
    ),
    FactDef(
        "declared_license",
        FactType.SET,
        "the licenses under which the licensee itself offers the model it distributes or makes "
        "available, as it declares them (a model card's `license:`: Hugging Face license ids "
        "such as apache-2.0, mit, llama3.1, gemma, or `other` with its license_name; library "
        "license ids are read too); [] where it declares none of its own (licheck's default: "
        "the model is then offered under the licenses it came with, which the clauses on a "
        "copy of the license still judge)",
    ),
    FactDef(
        "license_declared",
        FactType.BOOLEAN,
        "the licensee declares a license of its own for the model (from declared_license: "
        "true where it names any, false for [], unknown where it is unknown)",
        implicit=True,
    ),
    FactDef(
        "distributes_weights",
        FactType.BOOLEAN,
        "copies of the model weights are distributed (derived from the component's delivery "
        "when not stated)",
    ),
    FactDef(
        "distributes_code",
        FactType.BOOLEAN,
        "copies of the model's own code (its repository's inference, modelling or tokenizer "
        "code, in whole or substantial part) are distributed, e.g. vendored into an app, SDK "
        "or container shipped to others (derived when not stated: a hosted service or API "
        "alone ships none; distributed weights or no delivery leave it open; may be stated "
        "per model or per license)",
    ),
    FactDef(
        "license_copy_included",
        FactType.BOOLEAN,
        "distributed copies include a copy of the license text",
    ),
    FactDef(
        "direct_grant_stated",
        FactType.BOOLEAN,
        "distributed copies specify that the rights to use the model (and what is derived from "
        "it) are granted directly by the licensor to each recipient under the license, not by "
        "the distributor (FLUX.1 [dev] 3.a)",
    ),
    FactDef(
        "notice_included",
        FactType.BOOLEAN,
        "distributed copies include the copyright, permission or Notice text the license asks for",
    ),
    FactDef(
        "licensee_mau",
        FactType.QUANTITY,
        "monthly active users of all products or services made available by or for the "
        "licensee or its affiliates (the whole group: Llama, DBRX); may be given by month "
        "as a series, which clauses measured on a release date read",
        Dimension.COUNT,
    ),
    FactDef(
        "licensee_annual_revenue",
        FactType.QUANTITY,
        "revenue of the licensee and its affiliates from any source",
        Dimension.MONEY,
        12,
    ),
    # -- added for Mistral's Modified MIT (issue 26): the cut-off is on one month's revenue
    FactDef(
        "licensee_monthly_revenue",
        FactType.QUANTITY,
        "the global consolidated revenue of the licensee's company (or, where the licensee is "
        "an individual, of its employer), from any source, in the preceding month (Mistral "
        "Medium 3.5's Modified MIT); a year's total gives only the average month",
        Dimension.MONEY,
    ),
    FactDef(
        "territories",
        FactType.SET,
        "where the product is offered or used (ISO 3166 alpha-2 codes; EU stands for the "
        "union: an EU member's code also counts as EU, and excluding EU excludes every "
        "member)",
    ),
    FactDef(
        "agreement",
        FactType.SET,
        "the licensors with which the product's owner has a separate agreement (e.g. moonshot-ai)",
    ),
    FactDef(
        "agreement_waives",
        FactType.SET,
        "the clauses a separate agreement waives or replaces, as license-id/clause-id "
        "(or license-id/* for all of a license)",
        library_ids="clause",
    ),
    FactDef(
        "derivative",
        FactType.BOOLEAN,
        "a modified model (trained, merged or quantized from the base) is still a derivative "
        "work of it: an opinion that decides only where the license leaves the term to "
        "copyright law; where the license defines its Derivatives, the definition decides and a "
        "contradicting value is a governance risk; the unmodified model is the licensed model "
        "itself whatever it says (licheck licenses reach)",
    ),
    FactDef(
        "license_granted",
        FactType.SET,
        "the licenses (by license id) whose licensor has granted the license a gate asks for",
        library_ids="license",
    ),
    FactDef(
        "lineage",
        FactType.BOOLEAN,
        "the component is built on the model (from the manifest's lineage and its evidence)",
        implicit=True,
    ),
    FactDef(
        "owner_is_licensor",
        FactType.BOOLEAN,
        "the product's owner, or an affiliate of it, is the licensor of the model's license "
        "(from the manifest's owner id and affiliates and their evidence, matched exactly "
        "against the license's licensor id): a licensor is not its own licensee",
        implicit=True,
    ),
    # -- added for Llama, DBRX, Hunyuan, Stability (issue 3, part A)
    FactDef(
        "licensee_own_mau",
        FactType.QUANTITY,
        "monthly active users of all products or services made available by or for the "
        "licensee alone, affiliates not counted (Tencent Hunyuan); never more than "
        "licensee_mau and never less than mau; may be given by month as a series",
        Dimension.COUNT,
    ),
    FactDef(
        "licensee_dau",
        FactType.QUANTITY,
        "daily active users of the busiest service or product of the licensee or an "
        'affiliate (Baichuan 2: "your or your affiliate\'s service or product")',
        Dimension.COUNT,
    ),
    FactDef(
        "service_provider",
        FactType.BOOLEAN,
        "the licensee or an affiliate is a software service provider or a cloud service "
        "provider (Baichuan 2)",
    ),
    FactDef(
        "licensee_domicile",
        FactType.SET,
        "where the licensee is domiciled (an individual) or has its principal place of "
        "business (a company): ISO 3166 alpha-2 codes, EU member codes also count as EU",
    ),
    FactDef(
        "made_available",
        FactType.BOOLEAN,
        "the component, or a product or service containing it, is distributed or made "
        "available to third parties (derived from the component's delivery when not "
        "stated: any delivery means yes)",
    ),
    FactDef(
        "outputs_reach_third_parties",
        FactType.BOOLEAN,
        "the model's outputs or its capabilities reach third parties (customers, users, "
        "clients, the public): answers or content shown to them, code it wrote shipped in "
        "products they get, deliverables drafted with it; false only where everything it "
        "produces stays in-house",
    ),
    FactDef(
        "readings_settled",
        FactType.SET,
        "clauses whose open reading (the text leaves it to interpretation, so licheck gives a "
        "governance risk) a legal review has settled for the licensee, as license/clause ids; "
        "stated without a clause, the review found the cautious reading stands",
        library_ids="clause",
    ),
    FactDef(
        "further_terms_kept",
        FactType.SET,
        "the licenses whose further terms outside the encoded text (a commercial license "
        "agreement the licensor signs, an updated version it has published) a review has read "
        "and found kept, as license ids",
        library_ids="license",
    ),
    FactDef(
        "model_made_available",
        FactType.BOOLEAN,
        "the component is an AI model the licensee created, trained, fine-tuned or "
        "otherwise improved, and that model is distributed or made available (derived when "
        "not stated: no training step in the lineage means no; weights or api delivery "
        "means yes)",
    ),
    FactDef(
        "model_offered",
        FactType.BOOLEAN,
        "the model itself, as received or as the licensee changed it, is offered to third "
        "parties: its weights distributed or access to it by API (derived from the delivery "
        "when not stated: weights or api means yes, with or without a training step; a hosted "
        "service alone leaves it open)",
    ),
    FactDef(
        "registered_with",
        FactType.SET,
        "the licenses (by license id) under which the licensee has registered with the "
        "licensor, where a license asks for registration",
        library_ids="license",
    ),
    FactDef(
        "improves_other_models",
        FactType.SET,
        "the kinds of other AI models (not derivatives of the licensed model) that the "
        "licensee creates, trains or improves with the model or its outputs: llm (a large "
        "language model), foundation_model (a foundational generative AI model), other (any "
        "other AI model); list every kind that applies, [] for none. Derived at least in "
        "part where not stated: a component built on another family's model and trained on "
        "the model's outputs (trained_on_outputs_of, or a distillation step's parent) is "
        "itself such a model, of its base's kind in the catalog; stating a value that leaves "
        "that kind out is refused unless the statement carries evidence",
        members=frozenset({"llm", "foundation_model", "other"}),
    ),
    FactDef(
        "competes_with_licensed_model",
        FactType.BOOLEAN,
        "a model the licensee trains, fine-tunes or distils with the model's outputs is "
        "competitive with the model: offered for the same kind of generation (derived where "
        "not stated: a component built on a model of the same kind in the catalog, an image "
        "model trained on an image model's outputs, competes; stating false against that is "
        "refused unless the statement carries evidence)",
    ),
    FactDef(
        "improved_foundation_model_is_llm",
        FactType.BOOLEAN,
        "a foundational generative AI model the licensee creates, trains or improves with the "
        "model or its outputs (improves_other_models foundation_model) is a large language "
        "model; false for an image, audio or video model (unknown unless stated: bans on "
        "improving any other large language model read it)",
    ),
    FactDef(
        "use_policy_followed",
        FactType.BOOLEAN,
        "the product's use, and the use it allows others, keeps to the acceptable use "
        "policy the model's license incorporates (a review's conclusion: licheck cannot "
        "judge it)",
    ),
    FactDef(
        "use_restrictions_passed_on",
        FactType.BOOLEAN,
        "the terms under which the product or model is offered include the license's use "
        "restrictions as enforceable provisions, with notice to subsequent users",
    ),
    FactDef(
        "received_in_integrated_product",
        FactType.BOOLEAN,
        "the licensee received the model from another licensee as part of an integrated "
        "end user product (false unless stated: the owner obtained the model itself)",
    ),
    FactDef(
        "multimodal",
        FactType.BOOLEAN,
        "the model in the lineage is multimodal (from the catalog; unknown where the "
        "catalog does not say)",
        implicit=True,
    ),
    # -- added for Qwen, MiniMax, Kimi K3, DeepSeek, Gemma, Yi, glm-4 (issue 3, part B)
    FactDef(
        "annual_recurring_revenue",
        FactType.QUANTITY,
        "the product's annual recurring revenue (ARR): recurring revenue only, annualised "
        "(an amount without a period is per year)",
        Dimension.MONEY,
        12,
    ),
    FactDef(
        "licensee_peak_12_month_revenue",
        FactType.QUANTITY,
        "the highest total revenue of the licensee and its affiliates, from any source, over "
        "any consecutive 12 months (an amount without a period is per 12 months)",
        Dimension.MONEY,
        12,
    ),
    FactDef(
        "maas_business",
        FactType.BOOLEAN,
        "the licensee or an affiliate operates a Model as a Service business: third parties "
        "get model inference or fine-tuning (e.g. an API) with meaningful control over "
        "inputs, parameters or training data (not features embedded in an end-user product, "
        "nor mere relaying to models hosted by others)",
    ),
    FactDef(
        "ai_work_assistant_business",
        FactType.BOOLEAN,
        "the licensee or an affiliate conducts an AI Work Assistant business: an independent "
        "AI-powered product primarily designed for AI-assisted coding or office productivity "
        "(Qwen Community License 1.0; not a single-purpose AI tool, an assistant primarily "
        "for another domain, or an assistant that is a feature of a product whose primary "
        "purpose is not AI-assisted coding or office productivity)",
    ),
    FactDef(
        "via_licensor_channel",
        FactType.BOOLEAN,
        "the model is used only as accessed through its licensor's official products or "
        "certified inference partners",
    ),
    FactDef(
        "restricted_uses",
        FactType.SET,
        "the restricted uses the product is put to, as tags: military, unlawful, "
        "minors_harm, harmful_disinformation, automated_legal_decisions, discrimination, "
        "harassment, pii_misuse, exploiting_vulnerable_groups, national_security_harm, or "
        "policy:LICENSE-ID for a use a "
        "separately published policy of that license prohibits; [] states none",
        members=frozenset(
            {
                "military",
                "unlawful",
                "minors_harm",
                "harmful_disinformation",
                "automated_legal_decisions",
                "discrimination",
                "harassment",
                "pii_misuse",
                "exploiting_vulnerable_groups",
                "national_security_harm",
            }
        ),
        prefixes=("policy:",),
    ),
    # -- added for purpose-dependent grants (issue 12, part K3)
    FactDef(
        "use_purpose",
        FactType.SET,
        "what the model is used for, as tags: research, evaluation, academic (teaching and "
        "study), personal (non-commercial personal use), internal_business (the licensee's "
        "own internal operations), commercial_product (a product or service offered for "
        "revenue, directly or indirectly); list every one that applies. Refused beside "
        "`commercial` where they contradict (commercial_product with commercial false; "
        "commercial true with only research, evaluation, academic or personal)",
        members=frozenset(
            {
                "research",
                "evaluation",
                "academic",
                "personal",
                "internal_business",
                "commercial_product",
            }
        ),
    ),
    FactDef(
        "source_attributed",
        FactType.BOOLEAN,
        "the product or its documentation clearly attributes the model to its licensor "
        "(where a license asks for attribution without prescribing its words)",
    ),
    # -- added for scoped facts and the outputs relation (issue 12, part K1)
    FactDef(
        "outputs_lineage",
        FactType.BOOLEAN,
        "the component was trained on the model's outputs (from the lineage's "
        "trained_on_outputs_of and its evidence)",
        implicit=True,
    ),
    FactDef(
        "modified",
        FactType.BOOLEAN,
        "the shipped model is a modified version of the model in its lineage (derived when "
        "not stated: any training, merge or quantization step means yes, none means no)",
    ),
    FactDef(
        "modification_notices",
        FactType.BOOLEAN,
        "the modified files distributed carry prominent notices that they were changed (and "
        "how, where the license asks for it)",
    ),
    # -- the duties beyond use and attribution (issue 13): termination on claims, trademarks,
    # NOTICE files, latest versions, added terms, guardrails, export controls and FLUX's duties.
    # Each defaults to unknown: whether a licensee sued its licensor, or uses its marks, is never
    # assumed.
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
    # -- added for organisation policies (issue 16): what a policy rule reads of a component's
    # model and its license (`licheck.evaluation.policyjudging` supplies them), and one product fact
    FactDef(
        "customer_facing",
        FactType.BOOLEAN,
        "the product is offered to customers outside the organisation (organisation "
        "policies read it)",
    ),
    FactDef(
        "model_license",
        FactType.STRING,
        "the id of the license the model in the lineage is under, as the rule library names "
        "it (for organisation policies)",
        implicit=True,
    ),
    FactDef(
        "model_family",
        FactType.STRING,
        "the model family the catalog gives for the model in the lineage (for organisation "
        "policies; unknown where the catalog does not say)",
        implicit=True,
    ),
    FactDef(
        "license_thresholds",
        FactType.SET,
        "what the model's license (or a rule file it incorporates) has thresholds on: revenue "
        "when a clause's trigger compares an amount of money, users when it compares a count "
        "of users (for organisation policies)",
        implicit=True,
        members=frozenset({"revenue", "users"}),
    ),
    FactDef(
        "ungranted_gate",
        FactType.BOOLEAN,
        "a gate of the model's license is crossed without the licensor's grant recorded: true "
        "when a gate clause is a violation, false when none is a violation or a governance "
        "risk (for organisation policies)",
        implicit=True,
    ),
    # -- added for reach (issue 23): the relations a lineage has, in the license's defined terms
    FactDef(
        "relations",
        FactType.SET,
        "how the component is related to the model in its lineage, derived from the lineage "
        "and the delivery: served, redistributed, internal_use (the unmodified model), "
        "fine_tuned, quantized, merged (its weights), distilled, synthetic_data, judge (its "
        "outputs)",
        implicit=True,
        members=frozenset(
            {
                "served",
                "redistributed",
                "fine_tuned",
                "quantized",
                "merged",
                "distilled",
                "synthetic_data",
                "judge",
                "internal_use",
            }
        ),
    ),
    FactDef(
        "definition_covers",
        FactType.BOOLEAN,
        "the license's defined term covers the component's relation to the model, where the "
        "text leaves it open (unknown: a governance risk, as the rule's definitions say)",
        implicit=True,
    ),
    FactDef(
        "outputs_generated_by_licensee",
        FactType.BOOLEAN,
        "the outputs the component was trained on (a teacher's answers, synthetic data, a "
        "judge's scores) were generated by the product's owner running the model itself, not "
        "obtained from a third party's dataset: running the model to make them is use of it",
    ),
)

# -- added for Llama, DBRX, Hunyuan, Stability (issue 3, part A)
# Who is counted: each fact counts a subset of the users the next one counts, so a figure for
# one bounds the other (the product's users are some of the licensee's, which are some of the
# group's).  A clause reads the fact its license names; the bound lets a known figure settle it.
AT_MOST: Final = {
    "mau": "licensee_own_mau",
    "licensee_own_mau": "licensee_mau",
    # one year's revenue is never more than the highest 12-month total
    "licensee_annual_revenue": "licensee_peak_12_month_revenue",
    # a twelfth of ARR is the recurring part of this month's revenue (both in USD a month)
    "annual_recurring_revenue": "monthly_revenue",
}
# Facts a component may state per lineage model (`by_model`) or per license (`by_license`): each
# license may answer them differently (a Llama Notice file, an MIT notice, Apache's).
SCOPED: Final = frozenset(
    {
        "derivative",
        "notice_included",
        "license_copy_included",
        "distributes_code",
        "modification_notices",
        "ip_claims",
        "upstream_notice_file",
        "notice_file_carried",
    }
)
# Set facts of ISO 3166 codes, in which EU stands for the union (see `territory`).
TERRITORIAL: Final = frozenset({"territories", "licensee_domicile"})
# Conduct facts: what an organisation does (follows a use policy, uses marks, sues, complies
# with trade laws), not what a product's record shows (users, revenue, UI, lineage, agreements).
# An organisation may attest them once for many products (`licheck.report.attestations`), and a
# governance risk open only on them is one to attest (`risk_kind: attestation`).
CONDUCT: Final = frozenset(
    {
        "use_policy_followed",
        "use_restrictions_passed_on",
        "restricted_uses",
        "ip_claims",
        "group_ip_claims_against_licensor",
        "licensor_marks_used",
        "licensor_endorsement_implied",
        "latest_version_used",
        "added_terms_conflict",
        "licensor_disclaimers_carried",
        "others_violations_permitted",
        "guardrails_circumvented",
        "guardrail_substituted",
        "proprietary_notices_kept",
        "export_laws_complied",
        "risk_mitigation_in_place",
        "output_content_filtered",
        "machine_content_labelled",
        "ai_disclosure_included",
    }
)


def period_of(key: str) -> int:
    """The period, in months, a fact's money amounts are shown for: its own (ARR and a 12-month
    revenue per year, 12), else a month (1).  `key` may be measured (`fact@2024-06`)."""
    definition = FACTS.get(key.split("@", 1)[0])
    return definition.period_months if definition is not None else 1
