"""The report built from the findings, and what is applied to it: waivers, baselines, gate."""
