
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, correlationId INTEGER,
  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL,
  gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL);
INSERT INTO StringIds VALUES (1, 'gemm(float const*, float const*, float*, int)'), (2, 'gemm'),
  (3, 'vecadd(float const*, float const*, float*, int)'), (4, 'vecadd');
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (110, 52110, 1, 1, 2, 8, 8, 1, 256, 1, 1),
  (52200, 61200, 2, 3, 4, 256, 1, 1, 256, 1, 1), (61300, 112300, 3, 1, 2, 8, 8, 1, 256, 1, 1),
  (112400, 121500, 4, 3, 4, 256, 1, 1, 256, 1, 1);
