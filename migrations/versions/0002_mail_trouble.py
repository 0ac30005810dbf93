"""Seats whose mail is dead or bouncing (one GM notice per seat and address).

Revision ID: 0002_mail_trouble
Revises: 0001
Create Date: 2026-12-01
"""
from alembic import op
import sqlalchemy as sa


revision = '0002_mail_trouble'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('mail_trouble',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=16), nullable=False),
    sa.Column('address', sa.String(length=320), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('outbound_id', sa.Integer(), nullable=True),
    sa.Column('detail', sa.Text(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_mail_trouble_game_id_game'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['outbound_id'], ['outbound_mail.id'], name=op.f('fk_mail_trouble_outbound_id_outbound_mail'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_mail_trouble')),
    sa.UniqueConstraint('game_id', 'power', 'address', name=op.f('uq_mail_trouble_game_id_power_address'))
    )


def downgrade() -> None:
    op.drop_table('mail_trouble')
