-- Distribution keys (issue 27, docs/scaling.md): every primary and unique key of company data
-- includes company_id, so that each table can be distributed by it (Citus) without changing a key
-- again. src/platform/db/distribution-keys.test.ts holds every later migration to the rule.
--
-- 1. Tables keyed by id alone: the key becomes (company_id, id), replacing both the old primary key
--    and the (company_id, id) unique constraint the composite foreign keys pointed at; those foreign
--    keys are dropped first and added back against the new key (adding one checks the table: on a
--    large database this migration reads every referencing table once). A plain index on id stays,
--    as cheap as the old key, for the statements that still find a row by id alone (the sweeps that
--    cross companies; in a distributed database those become fan-out queries, docs/scaling.md).
ALTER TABLE classes DROP CONSTRAINT classes_company_id_class_group_id_fkey;
ALTER TABLE classes DROP CONSTRAINT classes_company_id_course_item_id_fkey;
ALTER TABLE classes DROP CONSTRAINT classes_company_id_org_unit_id_fkey;
ALTER TABLE enrollment_changes DROP CONSTRAINT enrollment_changes_company_id_enrollment_id_fkey;
ALTER TABLE enrollment_changes DROP CONSTRAINT enrollment_changes_company_id_operation_id_fkey;
ALTER TABLE enrollments DROP CONSTRAINT enrollments_company_id_class_id_fkey;
ALTER TABLE enrollments DROP CONSTRAINT enrollments_company_id_person_id_fkey;
ALTER TABLE entities DROP CONSTRAINT entities_company_id_parent_id_fkey;
ALTER TABLE form_alert_rules DROP CONSTRAINT form_alert_rules_company_id_form_id_fkey;
ALTER TABLE form_versions DROP CONSTRAINT form_versions_company_id_form_id_fkey;
ALTER TABLE invite_batches DROP CONSTRAINT invite_batches_company_id_form_id_fkey;
ALTER TABLE invite_drafts DROP CONSTRAINT invite_drafts_company_id_invite_id_fkey;
ALTER TABLE invite_messages DROP CONSTRAINT invite_messages_company_id_invite_id_fkey;
ALTER TABLE invites DROP CONSTRAINT invites_company_id_batch_id_fkey;
ALTER TABLE invites DROP CONSTRAINT invites_company_id_form_id_fkey;
ALTER TABLE public_link_drafts DROP CONSTRAINT public_link_drafts_company_id_form_id_fkey;
ALTER TABLE public_link_submissions DROP CONSTRAINT public_link_submissions_company_id_form_id_fkey;
ALTER TABLE public_link_submissions DROP CONSTRAINT public_link_submissions_company_id_response_id_fkey;
ALTER TABLE reminder_schedules DROP CONSTRAINT reminder_schedules_company_id_form_id_fkey;
ALTER TABLE reminder_steps DROP CONSTRAINT reminder_steps_company_id_invite_id_fkey;
ALTER TABLE respondent_page_states DROP CONSTRAINT respondent_page_states_company_id_form_id_fkey;
ALTER TABLE respondent_uploads DROP CONSTRAINT respondent_uploads_company_id_form_id_fkey;
ALTER TABLE respondent_uploads DROP CONSTRAINT respondent_uploads_company_id_invite_id_fkey;
ALTER TABLE respondent_uploads DROP CONSTRAINT respondent_uploads_company_id_response_id_fkey;
ALTER TABLE responses DROP CONSTRAINT responses_company_id_form_id_fkey;
ALTER TABLE statistics_rollup_pending DROP CONSTRAINT statistics_rollup_pending_company_id_form_id_fkey;
ALTER TABLE statistics_rollups DROP CONSTRAINT statistics_rollups_company_id_form_id_fkey1;
ALTER TABLE treatment_flows DROP CONSTRAINT treatment_flows_company_id_form_id_fkey;
ALTER TABLE treatment_history DROP CONSTRAINT treatment_history_company_id_treatment_id_fkey;
ALTER TABLE treatments DROP CONSTRAINT treatments_company_id_flow_id_fkey;
ALTER TABLE treatments DROP CONSTRAINT treatments_company_id_form_id_fkey;
ALTER TABLE treatments DROP CONSTRAINT treatments_company_id_response_id_fkey;
ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_company_id_delivery_id_fkey;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_company_id_event_id_fkey;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_company_id_subscription_id_fkey;

ALTER TABLE class_groups DROP CONSTRAINT class_groups_pkey, DROP CONSTRAINT class_groups_company_id_id_key, ADD CONSTRAINT class_groups_pkey PRIMARY KEY (company_id, id);
ALTER TABLE classes DROP CONSTRAINT classes_pkey, DROP CONSTRAINT classes_company_id_id_key, ADD CONSTRAINT classes_pkey PRIMARY KEY (company_id, id);
ALTER TABLE enrollment_changes DROP CONSTRAINT enrollment_changes_pkey, ADD CONSTRAINT enrollment_changes_pkey PRIMARY KEY (company_id, id);
ALTER TABLE enrollments DROP CONSTRAINT enrollments_pkey, DROP CONSTRAINT enrollments_company_id_id_key, ADD CONSTRAINT enrollments_pkey PRIMARY KEY (company_id, id);
ALTER TABLE entities DROP CONSTRAINT entities_pkey, DROP CONSTRAINT entities_company_id_id_key, ADD CONSTRAINT entities_pkey PRIMARY KEY (company_id, id);
ALTER TABLE events DROP CONSTRAINT events_pkey, DROP CONSTRAINT events_company_id_id_key, ADD CONSTRAINT events_pkey PRIMARY KEY (company_id, id);
ALTER TABLE form_alert_rules DROP CONSTRAINT form_alert_rules_pkey, DROP CONSTRAINT form_alert_rules_company_id_id_key, ADD CONSTRAINT form_alert_rules_pkey PRIMARY KEY (company_id, id);
ALTER TABLE form_versions DROP CONSTRAINT form_versions_pkey, ADD CONSTRAINT form_versions_pkey PRIMARY KEY (company_id, id);
ALTER TABLE forms DROP CONSTRAINT forms_pkey, DROP CONSTRAINT forms_company_id_id_key, ADD CONSTRAINT forms_pkey PRIMARY KEY (company_id, id);
ALTER TABLE invite_batches DROP CONSTRAINT invite_batches_pkey, DROP CONSTRAINT invite_batches_company_id_id_key, ADD CONSTRAINT invite_batches_pkey PRIMARY KEY (company_id, id);
ALTER TABLE invite_messages DROP CONSTRAINT invite_messages_pkey, ADD CONSTRAINT invite_messages_pkey PRIMARY KEY (company_id, id);
ALTER TABLE invites DROP CONSTRAINT invites_pkey, DROP CONSTRAINT invites_company_id_id_key, ADD CONSTRAINT invites_pkey PRIMARY KEY (company_id, id);
ALTER TABLE member_invitations DROP CONSTRAINT member_invitations_pkey, ADD CONSTRAINT member_invitations_pkey PRIMARY KEY (company_id, id);
ALTER TABLE people DROP CONSTRAINT people_pkey, DROP CONSTRAINT people_company_id_id_key, ADD CONSTRAINT people_pkey PRIMARY KEY (company_id, id);
ALTER TABLE respondent_uploads DROP CONSTRAINT respondent_uploads_pkey, DROP CONSTRAINT respondent_uploads_company_id_id_key, ADD CONSTRAINT respondent_uploads_pkey PRIMARY KEY (company_id, id);
ALTER TABLE responses DROP CONSTRAINT responses_pkey, DROP CONSTRAINT responses_company_id_id_key, ADD CONSTRAINT responses_pkey PRIMARY KEY (company_id, id);
ALTER TABLE roster_operations DROP CONSTRAINT roster_operations_pkey, DROP CONSTRAINT roster_operations_company_id_id_key, ADD CONSTRAINT roster_operations_pkey PRIMARY KEY (company_id, id);
ALTER TABLE treatment_flows DROP CONSTRAINT treatment_flows_pkey, DROP CONSTRAINT treatment_flows_company_id_id_key, ADD CONSTRAINT treatment_flows_pkey PRIMARY KEY (company_id, id);
ALTER TABLE treatment_history DROP CONSTRAINT treatment_history_pkey, ADD CONSTRAINT treatment_history_pkey PRIMARY KEY (company_id, id);
ALTER TABLE treatments DROP CONSTRAINT treatments_pkey, DROP CONSTRAINT treatments_company_id_id_key, ADD CONSTRAINT treatments_pkey PRIMARY KEY (company_id, id);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_pkey, DROP CONSTRAINT webhook_deliveries_company_id_id_key, ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (company_id, id);
ALTER TABLE webhook_subscriptions DROP CONSTRAINT webhook_subscriptions_pkey, DROP CONSTRAINT webhook_subscriptions_company_id_id_key, ADD CONSTRAINT webhook_subscriptions_pkey PRIMARY KEY (company_id, id);

CREATE INDEX class_groups_id_idx ON class_groups (id);
CREATE INDEX classes_id_idx ON classes (id);
CREATE INDEX enrollment_changes_id_idx ON enrollment_changes (id);
CREATE INDEX enrollments_id_idx ON enrollments (id);
CREATE INDEX entities_id_idx ON entities (id);
CREATE INDEX events_id_idx ON events (id);
CREATE INDEX form_alert_rules_id_idx ON form_alert_rules (id);
CREATE INDEX form_versions_id_idx ON form_versions (id);
CREATE INDEX forms_id_idx ON forms (id);
CREATE INDEX invite_batches_id_idx ON invite_batches (id);
CREATE INDEX invite_messages_id_idx ON invite_messages (id);
CREATE INDEX invites_id_idx ON invites (id);
CREATE INDEX member_invitations_id_idx ON member_invitations (id);
CREATE INDEX people_id_idx ON people (id);
CREATE INDEX respondent_uploads_id_idx ON respondent_uploads (id);
CREATE INDEX responses_id_idx ON responses (id);
CREATE INDEX roster_operations_id_idx ON roster_operations (id);
CREATE INDEX treatment_flows_id_idx ON treatment_flows (id);
CREATE INDEX treatment_history_id_idx ON treatment_history (id);
CREATE INDEX treatments_id_idx ON treatments (id);
CREATE INDEX webhook_deliveries_id_idx ON webhook_deliveries (id);
CREATE INDEX webhook_subscriptions_id_idx ON webhook_subscriptions (id);

ALTER TABLE classes ADD CONSTRAINT classes_company_id_class_group_id_fkey FOREIGN KEY (company_id, class_group_id) REFERENCES class_groups(company_id, id);
ALTER TABLE classes ADD CONSTRAINT classes_company_id_course_item_id_fkey FOREIGN KEY (company_id, course_item_id) REFERENCES entities(company_id, id);
ALTER TABLE classes ADD CONSTRAINT classes_company_id_org_unit_id_fkey FOREIGN KEY (company_id, org_unit_id) REFERENCES entities(company_id, id);
ALTER TABLE enrollment_changes ADD CONSTRAINT enrollment_changes_company_id_enrollment_id_fkey FOREIGN KEY (company_id, enrollment_id) REFERENCES enrollments(company_id, id) ON DELETE CASCADE;
ALTER TABLE enrollment_changes ADD CONSTRAINT enrollment_changes_company_id_operation_id_fkey FOREIGN KEY (company_id, operation_id) REFERENCES roster_operations(company_id, id);
ALTER TABLE enrollments ADD CONSTRAINT enrollments_company_id_class_id_fkey FOREIGN KEY (company_id, class_id) REFERENCES classes(company_id, id);
ALTER TABLE enrollments ADD CONSTRAINT enrollments_company_id_person_id_fkey FOREIGN KEY (company_id, person_id) REFERENCES people(company_id, id);
ALTER TABLE entities ADD CONSTRAINT entities_company_id_parent_id_fkey FOREIGN KEY (company_id, parent_id) REFERENCES entities(company_id, id);
ALTER TABLE form_alert_rules ADD CONSTRAINT form_alert_rules_company_id_form_id_fkey FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE;
ALTER TABLE form_versions ADD CONSTRAINT form_versions_company_id_form_id_fkey FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE;
ALTER TABLE invite_batches ADD CONSTRAINT invite_batches_company_id_form_id_fkey FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE;
ALTER TABLE invite_drafts ADD CONSTRAINT invite_drafts_company_id_invite_id_fkey FOREIGN KEY (company_id, invite_id) REFERENCES invites(company_id, id) ON DELETE CASCADE;
ALTER TABLE invite_messages ADD CONSTRAINT invite_messages_company_id_invite_id_fkey FOREIGN KEY (company_id, invite_id) REFERENCES invites(company_id, id) ON DELETE CASCADE;
ALTER TABLE invites ADD CONSTRAINT invites_company_id_batch_id_fkey FOREIGN KEY (company_id, batch_id) REFERENCES invite_batches(company_id, id);
ALTER TABLE invites ADD CONSTRAINT invites_company_id_form_id_fkey FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE;
ALTER TABLE public_link_drafts ADD CONSTRAINT public_link_drafts_company_id_form_id_fkey FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE;
ALTER TABLE public_link_submissions ADD CONSTRAINT public_link_submissions_company_id_form_id_fkey FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE;
ALTER TABLE public_link_submissions ADD CONSTRAINT public_link_submissions_company_id_response_id_fkey FOREIGN KEY (company_id, response_id) REFERENCES responses(company_id, id) ON DELETE CASCADE;
ALTER TABLE reminder_schedules ADD CONSTRAINT reminder_schedules_company_id_form_id_fkey FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE;
ALTER TABLE reminder_steps ADD CONSTRAINT reminder_steps_company_id_invite_id_fkey FOREIGN KEY (company_id, invite_id) REFERENCES invites(company_id, id) ON DELETE CASCADE;
ALTER TABLE respondent_page_states ADD CONSTRAINT respondent_page_states_company_id_form_id_fkey FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE;
ALTER TABLE respondent_uploads ADD CONSTRAINT respondent_uploads_company_id_form_id_fkey FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE;
ALTER TABLE respondent_uploads ADD CONSTRAINT respondent_uploads_company_id_invite_id_fkey FOREIGN KEY (company_id, invite_id) REFERENCES invites(company_id, id) ON DELETE CASCADE;
ALTER TABLE respondent_uploads ADD CONSTRAINT respondent_uploads_company_id_response_id_fkey FOREIGN KEY (company_id, response_id) REFERENCES responses(company_id, id) ON DELETE SET NULL (response_id);
ALTER TABLE responses ADD CONSTRAINT responses_company_id_form_id_fkey FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE;
ALTER TABLE statistics_rollup_pending ADD CONSTRAINT statistics_rollup_pending_company_id_form_id_fkey FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE;
ALTER TABLE statistics_rollups ADD CONSTRAINT statistics_rollups_company_id_form_id_fkey1 FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE;
ALTER TABLE treatment_flows ADD CONSTRAINT treatment_flows_company_id_form_id_fkey FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE;
ALTER TABLE treatment_history ADD CONSTRAINT treatment_history_company_id_treatment_id_fkey FOREIGN KEY (company_id, treatment_id) REFERENCES treatments(company_id, id) ON DELETE CASCADE;
ALTER TABLE treatments ADD CONSTRAINT treatments_company_id_flow_id_fkey FOREIGN KEY (company_id, flow_id) REFERENCES treatment_flows(company_id, id) ON DELETE SET NULL (flow_id);
ALTER TABLE treatments ADD CONSTRAINT treatments_company_id_form_id_fkey FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE;
ALTER TABLE treatments ADD CONSTRAINT treatments_company_id_response_id_fkey FOREIGN KEY (company_id, response_id) REFERENCES responses(company_id, id) ON DELETE SET NULL (response_id);
ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_company_id_delivery_id_fkey FOREIGN KEY (company_id, delivery_id) REFERENCES webhook_deliveries(company_id, id) ON DELETE CASCADE;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_company_id_event_id_fkey FOREIGN KEY (company_id, event_id) REFERENCES events(company_id, id) ON DELETE CASCADE;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_company_id_subscription_id_fkey FOREIGN KEY (company_id, subscription_id) REFERENCES webhook_subscriptions(company_id, id) ON DELETE CASCADE;

-- 2. Keys on something else: the respondent's page states and public-link drafts (looked up with
--    their company already), a draft per invite, a delivery's attempts.
ALTER TABLE invite_drafts DROP CONSTRAINT invite_drafts_pkey, ADD CONSTRAINT invite_drafts_pkey PRIMARY KEY (company_id, invite_id);
ALTER TABLE respondent_page_states DROP CONSTRAINT respondent_page_states_pkey, ADD CONSTRAINT respondent_page_states_pkey PRIMARY KEY (company_id, key_hash);
ALTER TABLE public_link_drafts DROP CONSTRAINT public_link_drafts_pkey, ADD CONSTRAINT public_link_drafts_pkey PRIMARY KEY (company_id, token_hash);
ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_pkey, ADD CONSTRAINT webhook_attempts_pkey PRIMARY KEY (company_id, delivery_id, attempt);
ALTER TABLE treatment_flows DROP CONSTRAINT treatment_flows_form_id_key_key, ADD CONSTRAINT treatment_flows_company_id_form_id_key_key UNIQUE (company_id, form_id, key);
DROP INDEX treatments_response_flow_idx;
CREATE UNIQUE INDEX treatments_response_flow_idx ON treatments (company_id, response_id, flow_key) WHERE response_id IS NOT NULL;

-- 3. Secrets looked up before the company is known (an invite's link token, a member invitation's
--    token, a provider's message id on a delivery receipt): unique within the company, and a plain
--    index keeps the lookup. The values are random (or the provider's own), so uniqueness across
--    companies never rested on the constraint; in a distributed database these lookups fan out
--    unless the token names its company (docs/scaling.md).
ALTER TABLE invites DROP CONSTRAINT invites_token_key, ADD CONSTRAINT invites_company_id_token_key UNIQUE (company_id, token);
CREATE INDEX invites_token_idx ON invites (token);
ALTER TABLE member_invitations DROP CONSTRAINT member_invitations_token_hash_key,
  ADD CONSTRAINT member_invitations_company_id_token_hash_key UNIQUE (company_id, token_hash);
CREATE INDEX member_invitations_token_hash_idx ON member_invitations (token_hash);
DROP INDEX invite_messages_provider_idx;
CREATE UNIQUE INDEX invite_messages_provider_idx ON invite_messages (company_id, channel, provider_message_id) WHERE provider_message_id IS NOT NULL;
CREATE INDEX invite_messages_provider_lookup_idx ON invite_messages (channel, provider_message_id) WHERE provider_message_id IS NOT NULL;
