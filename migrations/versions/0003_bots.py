"""Computer powers: bot seats, the promise ledger (agreement) and trust.

Revision ID: 0003_bots
Revises: 0002_mail_trouble
Create Date: 2026-12-01
"""
from alembic import op
import sqlalchemy as sa


revision = '0003_bots'
down_revision = '0002_mail_trouble'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('bot_seat',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=16), nullable=False),
    sa.Column('personality', sa.String(length=32), nullable=False),
    sa.Column('announced', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_bot_seat_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_bot_seat')),
    sa.UniqueConstraint('game_id', 'power', name=op.f('uq_bot_seat_game_id_power'))
    )
    with op.batch_alter_table('bot_seat', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_bot_seat_game_id'), ['game_id'], unique=False)

    op.create_table('agreement',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('proposer', sa.String(length=16), nullable=False),
    sa.Column('partner', sa.String(length=16), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('terms', sa.JSON(), nullable=False),
    sa.Column('since_phase', sa.String(length=8), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('broken_by', sa.String(length=16), nullable=True),
    sa.Column('evidence', sa.String(length=64), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_agreement_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_agreement')),
    sa.UniqueConstraint('game_id', 'number', name=op.f('uq_agreement_game_id_number'))
    )
    with op.batch_alter_table('agreement', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_agreement_game_id'), ['game_id'], unique=False)

    op.create_table('trust',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('holder', sa.String(length=16), nullable=False),
    sa.Column('other', sa.String(length=16), nullable=False),
    sa.Column('value', sa.Float(), nullable=False),
    sa.Column('betrayals', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_trust_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_trust')),
    sa.UniqueConstraint('game_id', 'holder', 'other', name=op.f('uq_trust_game_id_holder_other'))
    )
    with op.batch_alter_table('trust', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_trust_game_id'), ['game_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('trust', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_trust_game_id'))
    op.drop_table('trust')
    with op.batch_alter_table('agreement', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_agreement_game_id'))
    op.drop_table('agreement')
    with op.batch_alter_table('bot_seat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_bot_seat_game_id'))
    op.drop_table('bot_seat')
