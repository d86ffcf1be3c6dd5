"""The site tier: units of posenc_site, run in this process, without building a site."""
