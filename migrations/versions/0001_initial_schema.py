"""Initial schema: game world tables and the mail pipeline tables.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""
from alembic import op
import sqlalchemy as sa


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('account',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('address', sa.String(length=320), nullable=False),
    sa.Column('display_name', sa.String(length=200), nullable=False),
    sa.Column('language', sa.String(length=8), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_account')),
    sa.UniqueConstraint('address', name=op.f('uq_account_address'))
    )
    op.create_table('imap_state',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account', sa.String(length=320), nullable=False),
    sa.Column('uidvalidity', sa.Integer(), nullable=False),
    sa.Column('last_uid', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_imap_state')),
    sa.UniqueConstraint('account', name=op.f('uq_imap_state_account'))
    )
    op.create_table('inbound_mail',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('message_id', sa.String(length=998), nullable=False),
    sa.Column('body_sha256', sa.String(length=64), nullable=False),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('oversized', sa.Boolean(), nullable=False),
    sa.Column('envelope_from', sa.String(length=320), nullable=False),
    sa.Column('envelope_to', sa.JSON(), nullable=False),
    sa.Column('source', sa.String(length=16), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('error', sa.Text(), nullable=True),
    sa.Column('note', sa.Text(), nullable=True),
    sa.Column('processed_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_inbound_mail')),
    sa.UniqueConstraint('message_id', 'body_sha256', name=op.f('uq_inbound_mail_message_id_body_sha256'))
    )
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_inbound_mail_status'), ['status', 'id'], unique=False)

    op.create_table('game',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('variant', sa.String(length=32), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('language', sa.String(length=8), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('gm_account_id', sa.Integer(), nullable=True),
    sa.Column('phase', sa.String(length=8), nullable=False),
    sa.Column('position', sa.JSON(), nullable=False),
    sa.Column('deadline', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['gm_account_id'], ['account.id'], name=op.f('fk_game_gm_account_id_account')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game')),
    sa.UniqueConstraint('name', name=op.f('uq_game_name'))
    )
    op.create_table('audit_log',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('actor_account_id', sa.Integer(), nullable=True),
    sa.Column('action', sa.String(length=64), nullable=False),
    sa.Column('detail', sa.JSON(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['actor_account_id'], ['account.id'], name=op.f('fk_audit_log_actor_account_id_account')),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_audit_log_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_log'))
    )
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_audit_log_game_id'), ['game_id'], unique=False)

    op.create_table('deadline',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=8), nullable=False),
    sa.Column('due_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('done', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_deadline_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_deadline'))
    )
    with op.batch_alter_table('deadline', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_deadline_done'), ['done', 'due_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_deadline_game_id'), ['game_id'], unique=False)

    op.create_table('order_set',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=16), nullable=False),
    sa.Column('phase', sa.String(length=8), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('orders', sa.JSON(), nullable=False),
    sa.Column('source', sa.String(length=16), nullable=False),
    sa.Column('submitted_by_id', sa.Integer(), nullable=True),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_order_set_game_id_game'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['submitted_by_id'], ['account.id'], name=op.f('fk_order_set_submitted_by_id_account')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_order_set')),
    sa.UniqueConstraint('game_id', 'power', 'phase', 'version', name=op.f('uq_order_set_game_id_power_phase_version'))
    )
    op.create_table('outbound_mail',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('to_addr', sa.String(length=320), nullable=False),
    sa.Column('subject', sa.String(length=998), nullable=False),
    sa.Column('headers', sa.JSON(), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('attachments', sa.JSON(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('list_id', sa.String(length=255), nullable=True),
    sa.Column('inbound_id', sa.Integer(), nullable=True),
    sa.Column('in_reply_to', sa.String(length=998), nullable=True),
    sa.Column('references', sa.Text(), nullable=True),
    sa.Column('message_id', sa.String(length=255), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('tries', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_outbound_mail_game_id_game'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['inbound_id'], ['inbound_mail.id'], name=op.f('fk_outbound_mail_inbound_id_inbound_mail'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outbound_mail')),
    sa.UniqueConstraint('message_id', name=op.f('uq_outbound_mail_message_id'))
    )
    with op.batch_alter_table('outbound_mail', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbound_mail_inbound_id'), ['inbound_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbound_mail_status'), ['status', 'next_attempt_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbound_mail_to_addr'), ['to_addr', 'created'], unique=False)

    op.create_table('press',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=8), nullable=False),
    sa.Column('from_power', sa.String(length=16), nullable=False),
    sa.Column('to_powers', sa.JSON(), nullable=False),
    sa.Column('grey', sa.Boolean(), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_press_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_press'))
    )
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_press_game_id'), ['game_id', 'phase'], unique=False)

    op.create_table('seat',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=16), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('late_days_used', sa.Integer(), nullable=False),
    sa.Column('late_days_this_turn', sa.Integer(), nullable=False),
    sa.Column('strikes', sa.Integer(), nullable=False),
    sa.Column('wait', sa.Boolean(), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('preferences', sa.JSON(), nullable=False),
    sa.Column('anon_token', sa.String(length=64), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['account.id'], name=op.f('fk_seat_account_id_account')),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_seat_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seat')),
    sa.UniqueConstraint('anon_token', name=op.f('uq_seat_anon_token')),
    sa.UniqueConstraint('game_id', 'power', name=op.f('uq_seat_game_id_power'))
    )
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seat_account_id'), ['account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_seat_game_id'), ['game_id'], unique=False)

    op.create_table('turn',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=8), nullable=False),
    sa.Column('position_before', sa.JSON(), nullable=False),
    sa.Column('orders_submitted', sa.JSON(), nullable=False),
    sa.Column('orders_generated', sa.JSON(), nullable=False),
    sa.Column('orders_illegal', sa.JSON(), nullable=False),
    sa.Column('outcomes', sa.JSON(), nullable=False),
    sa.Column('position_after', sa.JSON(), nullable=False),
    sa.Column('bulletins', sa.JSON(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_turn_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_turn')),
    sa.UniqueConstraint('game_id', 'phase', name=op.f('uq_turn_game_id_phase'))
    )
    op.create_table('vote',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=8), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('voter_power', sa.String(length=16), nullable=False),
    sa.Column('target_power', sa.String(length=16), nullable=True),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_vote_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_vote'))
    )
    with op.batch_alter_table('vote', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_vote_game_id'), ['game_id', 'phase', 'kind'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('vote', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_vote_game_id'))

    op.drop_table('vote')
    op.drop_table('turn')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_game_id'))
        batch_op.drop_index(batch_op.f('ix_seat_account_id'))

    op.drop_table('seat')
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_press_game_id'))

    op.drop_table('press')
    with op.batch_alter_table('outbound_mail', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbound_mail_to_addr'))
        batch_op.drop_index(batch_op.f('ix_outbound_mail_status'))
        batch_op.drop_index(batch_op.f('ix_outbound_mail_inbound_id'))

    op.drop_table('outbound_mail')
    op.drop_table('order_set')
    with op.batch_alter_table('deadline', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_deadline_game_id'))
        batch_op.drop_index(batch_op.f('ix_deadline_done'))

    op.drop_table('deadline')
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_log_game_id'))

    op.drop_table('audit_log')
    op.drop_table('game')
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_inbound_mail_status'))

    op.drop_table('inbound_mail')
    op.drop_table('imap_state')
    op.drop_table('account')
