"""The HTTP layer: the blueprints of ``/v1`` and of the probes, the schemas (the games' built
from the rules' declarations), problem JSON (one table maps every kind of refusal to a status),
the edge every request passes through, event streams, the browser table and the docs."""
