"""Speed against the references, printed as ratios measured in one run (`make bench`)."""
