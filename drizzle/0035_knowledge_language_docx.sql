-- Word documents in the knowledge base, and the language each document is indexed in: its text
-- search configuration (German documents stemmed as German, English as English). Documents
-- already stored were indexed as English, which the default records.
ALTER TABLE "knowledge_documents" DROP CONSTRAINT "knowledge_documents_format_check";--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD CONSTRAINT "knowledge_documents_language_check" CHECK ("knowledge_documents"."language" in ('en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'und'));--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD CONSTRAINT "knowledge_documents_format_check" CHECK ("knowledge_documents"."format" in ('markdown', 'text', 'html', 'pdf', 'docx'));