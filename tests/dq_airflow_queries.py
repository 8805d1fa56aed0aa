"""Queries on the Airflow metadata DB for the severity/branch/sensor tests: asset events, rendered fields, XComs."""

from __future__ import annotations


def _ti(run, task_id):
    return next(ti for ti in run.get_task_instances() if ti.task_id == task_id)


def asset_events(run, task_id: str | None = None) -> list[dict]:
    """Asset events emitted by this DagRun's tasks: [{uri, extra, task_id}]."""
    from airflow.models.asset import AssetEvent, AssetModel
    from airflow.utils.session import create_session

    with create_session() as session:
        q = session.query(AssetEvent, AssetModel).join(AssetModel, AssetEvent.asset_id == AssetModel.id).filter(
            AssetEvent.source_dag_id == run.dag_id, AssetEvent.source_run_id == run.run_id)
        if task_id:
            q = q.filter(AssetEvent.source_task_id == task_id)
        return [{"uri": m.uri, "extra": e.extra, "task_id": e.source_task_id} for e, m in q.all()]


def queued_for(dag_id: str) -> list[str]:
    """URIs of asset events queued to trigger ``dag_id`` (AssetDagRunQueue)."""
    from airflow.models.asset import AssetDagRunQueue, AssetModel
    from airflow.utils.session import create_session

    with create_session() as session:
        rows = session.query(AssetModel.uri).join(AssetDagRunQueue, AssetDagRunQueue.asset_id == AssetModel.id).filter(
            AssetDagRunQueue.target_dag_id == dag_id).all()
        return [r[0] for r in rows]


def clear_queue(dag_id: str) -> None:
    from airflow.models.asset import AssetDagRunQueue
    from airflow.utils.session import create_session

    with create_session() as session:
        session.query(AssetDagRunQueue).filter(AssetDagRunQueue.target_dag_id == dag_id).delete()


def rendered_fields(run, task_id: str) -> dict:
    from airflow.models.renderedtifields import RenderedTaskInstanceFields as RTIF
    from airflow.utils.session import create_session

    with create_session() as session:
        row = session.query(RTIF).filter(RTIF.dag_id == run.dag_id, RTIF.run_id == run.run_id,
                                         RTIF.task_id == task_id).one_or_none()
        return dict(row.rendered_fields) if row else {}


def try_number(run, task_id: str) -> int:
    return _ti(run, task_id).try_number


def unpause(dag_id: str) -> None:
    """Unpause ``dag_id`` (new DAGs are paused, and paused DAGs get no asset-triggered runs queued), syncing the
    dags-folder bundle to the DB first if the DAG is not there yet."""
    from airflow.models.dag import DagModel
    from airflow.utils.session import create_session

    with create_session() as session:
        model = session.get(DagModel, dag_id)
        if model is None:
            from airflow.dag_processing.bundles.manager import DagBundlesManager
            from airflow.dag_processing.dagbag import BundleDagBag, sync_bag_to_db

            manager = DagBundlesManager()
            manager.sync_bundles_to_db(session=session)
            session.commit()
            for bundle in manager.get_all_dag_bundles():
                if not bundle.is_initialized:
                    bundle.initialize()
                bag = BundleDagBag(dag_folder=bundle.path, bundle_path=bundle.path, bundle_name=bundle.name)
                sync_bag_to_db(bag, bundle.name, bundle.version)
            model = session.get(DagModel, dag_id)
        assert model is not None, f"DAG {dag_id} is not in the dags folder"
        model.is_paused = False
