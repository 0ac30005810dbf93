"""Mail in and out: the only package importing aiosmtpd, aioimaplib and aiosmtplib."""
