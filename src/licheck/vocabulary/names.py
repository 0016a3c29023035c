"""The shared vocabulary of fact names in which licenses and manifests meet.

Every condition in a rule file and every fact in a manifest names a fact defined here; `licheck
facts` prints them, and the table of docs/facts.md is `licheck facts --format markdown` (a test
keeps the two in step).
"""

from __future__ import annotations

from typing import Final

from licheck.core.units import Dimension
from licheck.vocabulary.duty_facts import DUTY_FACTS
from licheck.vocabulary.factdefs import FactDef as FactDef
from licheck.vocabulary.factdefs import FactType as FactType
from licheck.vocabulary.factdefs import suggest as suggest


def _facts(*defs: FactDef) -> dict[str, FactDef]:
    return {d.name: d for d in defs}


FACTS: Final = _facts(
    FactDef(
        "mau", FactType.QUANTITY, "monthly active users of the product or service", Dimension.COUNT
    ),
    FactDef(
        "monthly_revenue",
        FactType.QUANTITY,
        "the product's own revenue per month; a manifest may state annual revenue or ARR "
        "(e.g. 2B USD/year) or another currency with its rate",
        Dimension.MONEY,
        1,
    ),
    FactDef("commercial", FactType.BOOLEAN, "the product or service is commercial"),
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
        "other AI model); list every kind that applies, [] for none",
        members=frozenset({"llm", "foundation_model", "other"}),
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
    *DUTY_FACTS,
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
