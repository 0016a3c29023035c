"""One manifest to its findings: derive the facts, bind the licenses, judge each clause."""
