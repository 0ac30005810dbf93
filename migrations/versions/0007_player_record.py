"""A player's record per game: phases played and missed, abandoned, replaced (issue 30).

Revision ID: 0007_player_record
Revises: 0006_blobs_render_jobs
Create Date: 2026-12-04
"""
from alembic import op
import sqlalchemy as sa


revision = '0007_player_record'
down_revision = '0006_blobs_render_jobs'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('player_record',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('played', sa.Integer(), nullable=False),
    sa.Column('missed', sa.Integer(), nullable=False),
    sa.Column('abandoned', sa.Integer(), nullable=False),
    sa.Column('replaced', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['account.id'], name=op.f('fk_player_record_account_id_account'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_player_record_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_record')),
    sa.UniqueConstraint('account_id', 'game_id', name=op.f('uq_player_record_account_id_game_id'))
    )
    with op.batch_alter_table('player_record', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_record_account_id'), ['account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_player_record_game_id'), ['game_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('player_record', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_record_game_id'))
        batch_op.drop_index(batch_op.f('ix_player_record_account_id'))
    op.drop_table('player_record')
