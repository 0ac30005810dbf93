"""API tokens (issue 27): a bearer token per seat or GM, kept as its SHA-256.

Revision ID: 0007_api_tokens
Revises: 0006_blobs_render_jobs
Create Date: 2026-12-04
"""
from alembic import op
import sqlalchemy as sa


revision = '0007_api_tokens'
down_revision = '0006_blobs_render_jobs'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('api_token',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_sha256', sa.String(length=64), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=16), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['account.id'], name=op.f('fk_api_token_account_id_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_api_token_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_api_token')),
    sa.UniqueConstraint('token_sha256', name=op.f('uq_api_token_token_sha256'))
    )
    with op.batch_alter_table('api_token', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_api_token_game_id'), ['game_id', 'power'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('api_token', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_api_token_game_id'))
    op.drop_table('api_token')
