"""Address confirmations, sign-on lockouts, confirmed accounts, per-seat relay secrets.

Accounts that already hold a seat or run a game are taken as confirmed: they were playing
before confirmations existed, and holding them back would stop running games.

Revision ID: 0004_confirmations
Revises: 0003_bots
Create Date: 2026-12-01
"""
from alembic import op
import sqlalchemy as sa



revision = '0004_confirmations'
down_revision = '0003_bots'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('account', schema=None) as batch_op:
        batch_op.add_column(sa.Column('confirmed_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('relay_secret', sa.String(length=32), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_seat_relay_secret'), ['relay_secret'])
    op.execute(
        "UPDATE account SET confirmed_at = created WHERE id IN "
        "(SELECT account_id FROM seat WHERE account_id IS NOT NULL) "
        "OR id IN (SELECT gm_account_id FROM game WHERE gm_account_id IS NOT NULL)"
    )
    op.create_table('confirmation',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_sha256', sa.String(length=64), nullable=False),
    sa.Column('address', sa.String(length=320), nullable=False),
    sa.Column('action', sa.String(length=16), nullable=False),
    sa.Column('requested_by_id', sa.Integer(), nullable=True),
    sa.Column('inbound_id', sa.Integer(), nullable=True),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('power', sa.String(length=16), nullable=True),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('done_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_confirmation_game_id_game'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['inbound_id'], ['inbound_mail.id'], name=op.f('fk_confirmation_inbound_id_inbound_mail'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['requested_by_id'], ['account.id'], name=op.f('fk_confirmation_requested_by_id_account')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_confirmation')),
    sa.UniqueConstraint('token_sha256', name=op.f('uq_confirmation_token_sha256'))
    )
    with op.batch_alter_table('confirmation', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_confirmation_address'), ['address', 'created'], unique=False)
        batch_op.create_index(batch_op.f('ix_confirmation_requested_by_id'), ['requested_by_id', 'created'], unique=False)
        batch_op.create_index(batch_op.f('ix_confirmation_status'), ['status', 'expires_at'], unique=False)
    op.create_table('signon_lock',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=16), nullable=False),
    sa.Column('failures', sa.Integer(), nullable=False),
    sa.Column('first_failure_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('gm_told', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_signon_lock_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_signon_lock')),
    sa.UniqueConstraint('game_id', 'power', name=op.f('uq_signon_lock_game_id_power'))
    )


def downgrade() -> None:
    op.drop_table('signon_lock')
    with op.batch_alter_table('confirmation', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_confirmation_status'))
        batch_op.drop_index(batch_op.f('ix_confirmation_requested_by_id'))
        batch_op.drop_index(batch_op.f('ix_confirmation_address'))
    op.drop_table('confirmation')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_seat_relay_secret'), type_='unique')
        batch_op.drop_column('relay_secret')
    with op.batch_alter_table('account', schema=None) as batch_op:
        batch_op.drop_column('confirmed_at')
