-- The reference's TaxCodeModel.accountingIntegrationSystem: the accounting system of the integration
-- that created the tax code, from its token's `accounting_system` claim (as an account's
-- accountingSystem); null for a token without one, and for every tax code created before.
ALTER TABLE tax_codes ADD COLUMN accounting_integration_system text;
