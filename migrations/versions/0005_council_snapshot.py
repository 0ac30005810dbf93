"""Computer powers: the council (ledger, trust) as it stood at each adjudicated phase, for
ROLLBACK.

Revision ID: 0005_council_snapshot
Revises: 0004_confirmations
Create Date: 2026-12-02
"""
from alembic import op
import sqlalchemy as sa


revision = '0005_council_snapshot'
down_revision = '0004_confirmations'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('council_snapshot',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=8), nullable=False),
    sa.Column('council', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_council_snapshot_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_council_snapshot')),
    sa.UniqueConstraint('game_id', 'phase', name=op.f('uq_council_snapshot_game_id_phase'))
    )
    with op.batch_alter_table('council_snapshot', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_council_snapshot_game_id'), ['game_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('council_snapshot', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_council_snapshot_game_id'))
    op.drop_table('council_snapshot')
