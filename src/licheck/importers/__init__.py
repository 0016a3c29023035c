"""What users already have (CycloneDX ML-BOMs, Hugging Face model cards) to manifest skeletons.

A skeleton states only what its source says, with that source as `declared` evidence, and marks
everything else `unknown`.  A model is named by its catalog id only when the source identifies it
explicitly (a Hugging Face id, a purl, a `licheck:model` property) and the catalog lists that id;
otherwise it is `unknown`, with a note saying what the source called it.  A license is never
inferred from a model's name, and a source's license fields are recorded in notes, never mapped
to licheck's rules: the catalog decides the license.
"""
