"""Content-addressed blobs, durable render jobs, outbox rows referencing a blob (issue 16).

Revision ID: 0006_blobs_render_jobs
Revises: 0005_council_snapshot
Create Date: 2026-12-02
"""
from alembic import op
import sqlalchemy as sa


revision = '0006_blobs_render_jobs'
down_revision = '0005_council_snapshot'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('blob',
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('mime', sa.String(length=100), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('sha256', name=op.f('pk_blob'))
    )
    op.create_table('render_job',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('turn_id', sa.Integer(), nullable=True),
    sa.Column('event', sa.String(length=32), nullable=False),
    sa.Column('language', sa.String(length=8), nullable=False),
    sa.Column('view', sa.JSON(), nullable=False),
    sa.Column('map_spec', sa.JSON(), nullable=True),
    sa.Column('fill_ids', sa.JSON(), nullable=False),
    sa.Column('hold_ids', sa.JSON(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_render_job_game_id_game'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['turn_id'], ['turn.id'], name=op.f('fk_render_job_turn_id_turn'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_render_job'))
    )
    with op.batch_alter_table('render_job', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_render_job_game_id'), ['game_id'], unique=False)
    with op.batch_alter_table('outbound_mail', schema=None) as batch_op:
        batch_op.add_column(sa.Column('blob_sha256', sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f('ix_outbound_mail_blob_sha256'), ['blob_sha256'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_outbound_mail_blob_sha256_blob'), 'blob', ['blob_sha256'], ['sha256'], ondelete='RESTRICT')


def downgrade() -> None:
    with op.batch_alter_table('outbound_mail', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_outbound_mail_blob_sha256_blob'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_outbound_mail_blob_sha256'))
        batch_op.drop_column('blob_sha256')
    with op.batch_alter_table('render_job', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_render_job_game_id'))
    op.drop_table('render_job')
    op.drop_table('blob')
