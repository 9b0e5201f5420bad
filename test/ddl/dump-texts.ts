/**
 * Two dump files for the dump tests (dump-files.test.ts): the shape of a MySQL 5.7 mysqldump and a
 * real mariadb-dump 10.11 file, with the statements around the CREATE TABLEs the parser must skip.
 */
import { sql } from './helpers.ts';

// The shape of a MySQL 5.7 mysqldump: conditional SET comments, LOCK TABLES, extended INSERTs with
// escapes, a view placeholder table, a trigger and a procedure between DELIMITER ;; lines.
export const MYSQL57_DUMP = sql`-- MySQL dump 10.13  Distrib 5.7.44, for Linux (x86_64)
--
-- Host: localhost    Database: shop
-- ------------------------------------------------------
-- Server version	5.7.44-log

/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET @OLD_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS */;
/*!40101 SET @OLD_COLLATION_CONNECTION=@@COLLATION_CONNECTION */;
/*!40101 SET NAMES utf8 */;
/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
/*!40103 SET TIME_ZONE='+00:00' */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;
/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;
/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */;

--
-- Table structure for table \`order items\`
--

DROP TABLE IF EXISTS \`order items\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8 */;
CREATE TABLE \`order items\` (
  \`order_id\` int(10) unsigned NOT NULL,
  \`line\` smallint(5) unsigned NOT NULL,
  \`sku\` char(12) NOT NULL,
  \`qty\` int(11) NOT NULL DEFAULT '1',
  \`note\` varchar(200) DEFAULT NULL COMMENT 'free text; may hold '' and \\ and ;',
  PRIMARY KEY (\`order_id\`,\`line\`),
  KEY \`sku\` (\`sku\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COMMENT='lines of an order';
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table \`order items\`
--

LOCK TABLES \`order items\` WRITE;
/*!40000 ALTER TABLE \`order items\` DISABLE KEYS */;
INSERT INTO \`order items\` VALUES (1,1,'SKU-1',2,'O\'Brien: \"CREATE TABLE x (a int);\"'),(1,2,'SKU-2',1,'back\\slash\\'),(2,1,'SKU-3',1,'it''s -- not a comment /* nor this; */ # nor this');
/*!40000 ALTER TABLE \`order items\` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table \`we\`\`ird\`
--

DROP TABLE IF EXISTS \`we\`\`ird\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8 */;
CREATE TABLE \`we\`\`ird\` (
  \`col\`\`1\` int(11) NOT NULL,
  \`#not a comment\` varchar(5) CHARACTER SET latin1 COLLATE latin1_bin DEFAULT '-- x',
  PRIMARY KEY (\`col\`\`1\`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1 ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8
/*!50100 PARTITION BY KEY (\`col\`\`1\`)
PARTITIONS 4 */;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Temporary table structure for view \`v_items\`
--

DROP TABLE IF EXISTS \`v_items\`;
/*!50001 DROP VIEW IF EXISTS \`v_items\`*/;
SET @saved_cs_client     = @@character_set_client;
SET character_set_client = utf8;
/*!50001 CREATE TABLE \`v_items\` (
  \`order_id\` tinyint NOT NULL,
  \`sku\` tinyint NOT NULL
) ENGINE=MyISAM */;
SET character_set_client = @saved_cs_client;
/*!50003 SET @saved_cs_client      = @@character_set_client */ ;
/*!50003 SET @saved_sql_mode       = @@sql_mode */ ;
/*!50003 SET sql_mode              = 'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES' */ ;
DELIMITER ;;
/*!50003 CREATE*/ /*!50017 DEFINER=\`root\`@\`localhost\`*/ /*!50003 TRIGGER \`items_bi\` BEFORE INSERT ON \`order items\` FOR EACH ROW BEGIN
  IF NEW.qty < 1 THEN SET NEW.qty = 1; END IF;
END */;;
DELIMITER ;
/*!50003 SET sql_mode              = @saved_sql_mode */ ;

--
-- Dumping routines for database 'shop'
--
DELIMITER ;;
CREATE DEFINER=\`root\`@\`localhost\` PROCEDURE \`make_tmp\`()
BEGIN
  CREATE TEMPORARY TABLE tmp_items (id int);
  INSERT INTO tmp_items VALUES (1);
END ;;
DELIMITER ;

--
-- Final view structure for view \`v_items\`
--

/*!50001 DROP VIEW IF EXISTS \`v_items\`*/;
/*!50001 SET @saved_cs_client          = @@character_set_client */;
/*!50001 CREATE ALGORITHM=UNDEFINED */
/*!50013 DEFINER=\`root\`@\`localhost\` SQL SECURITY DEFINER */
/*!50001 VIEW \`v_items\` AS select \`order items\`.\`order_id\` AS \`order_id\`,\`order items\`.\`sku\` AS \`sku\` from \`order items\` */;
/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;

-- Dump completed on 2024-05-01 12:00:00
`;

// A real mariadb-dump 10.11 file (--routines --triggers --databases): sandbox-mode first line, a
// trigger, a procedure whose body creates a table, a view, partitions, engine options.
export const MARIADB_DUMP = sql`/*M!999999\- enable the sandbox mode */ 
-- MariaDB dump 10.19  Distrib 10.11.19-MariaDB, for debian-linux-gnu (x86_64)
--
-- Host: localhost    Database: d1
-- ------------------------------------------------------
-- Server version	10.11.19-MariaDB-0+deb12u1

/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET @OLD_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS */;
/*!40101 SET @OLD_COLLATION_CONNECTION=@@COLLATION_CONNECTION */;
/*!40101 SET NAMES utf8mb4 */;
/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
/*!40103 SET TIME_ZONE='+00:00' */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;
/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;
/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */;

--
-- Current Database: \`d1\`
--

CREATE DATABASE /*!32312 IF NOT EXISTS*/ \`d1\` /*!40100 DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci */;

USE \`d1\`;

--
-- Table structure for table \`child\`
--

DROP TABLE IF EXISTS \`child\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE \`child\` (
  \`id\` int(11) NOT NULL,
  \`pid\` bigint(20) unsigned DEFAULT NULL,
  PRIMARY KEY (\`id\`),
  KEY \`fk\` (\`pid\`),
  CONSTRAINT \`fk\` FOREIGN KEY (\`pid\`) REFERENCES \`parent\` (\`id\`) ON DELETE CASCADE ON UPDATE SET NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb3 COLLATE=utf8mb3_general_ci STATS_PERSISTENT=0 \`PAGE_COMPRESSED\`='1';
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table \`child\`
--

LOCK TABLES \`child\` WRITE;
/*!40000 ALTER TABLE \`child\` DISABLE KEYS */;
INSERT INTO \`child\` VALUES
(1,1);
/*!40000 ALTER TABLE \`child\` ENABLE KEYS */;
UNLOCK TABLES;
/*!50003 SET @saved_cs_client      = @@character_set_client */ ;
/*!50003 SET @saved_cs_results     = @@character_set_results */ ;
/*!50003 SET @saved_col_connection = @@collation_connection */ ;
/*!50003 SET character_set_client  = utf8mb3 */ ;
/*!50003 SET character_set_results = utf8mb3 */ ;
/*!50003 SET collation_connection  = utf8mb3_general_ci */ ;
/*!50003 SET @saved_sql_mode       = @@sql_mode */ ;
/*!50003 SET sql_mode              = 'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION' */ ;
DELIMITER ;;
/*!50003 CREATE*/ /*!50017 DEFINER=\`root\`@\`localhost\`*/ /*!50003 TRIGGER trg BEFORE INSERT ON child FOR EACH ROW BEGIN SET NEW.id = NEW.id + 0; END 
*/;;
DELIMITER ;
/*!50003 SET sql_mode              = @saved_sql_mode */ ;
/*!50003 SET character_set_client  = @saved_cs_client */ ;
/*!50003 SET character_set_results = @saved_cs_results */ ;
/*!50003 SET collation_connection  = @saved_col_connection */ ;

--
-- Table structure for table \`hist\`
--

DROP TABLE IF EXISTS \`hist\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE \`hist\` (
  \`id\` int(11) NOT NULL,
  \`x\` int(11) DEFAULT NULL,
  PRIMARY KEY (\`id\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci WITH SYSTEM VERSIONING;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table \`hist\`
--

LOCK TABLES \`hist\` WRITE;
/*!40000 ALTER TABLE \`hist\` DISABLE KEYS */;
/*!40000 ALTER TABLE \`hist\` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table \`parent\`
--

DROP TABLE IF EXISTS \`parent\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE \`parent\` (
  \`id\` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  \`name\` varchar(40) DEFAULT NULL,
  UNIQUE KEY \`id\` (\`id\`),
  UNIQUE KEY \`name\` (\`name\`)
) ENGINE=InnoDB AUTO_INCREMENT=3 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table \`parent\`
--

LOCK TABLES \`parent\` WRITE;
/*!40000 ALTER TABLE \`parent\` DISABLE KEYS */;
INSERT INTO \`parent\` VALUES
(1,'it\'s a \'test\';'),
(2,'semi;colon');
/*!40000 ALTER TABLE \`parent\` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table \`part\`
--

DROP TABLE IF EXISTS \`part\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE \`part\` (
  \`id\` int(11) NOT NULL,
  \`v\` varchar(5) DEFAULT NULL,
  PRIMARY KEY (\`id\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
 PARTITION BY RANGE (\`id\`)
(PARTITION \`p0\` VALUES LESS THAN (10) ENGINE = InnoDB,
 PARTITION \`p1\` VALUES LESS THAN MAXVALUE ENGINE = InnoDB);
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table \`part\`
--

LOCK TABLES \`part\` WRITE;
/*!40000 ALTER TABLE \`part\` DISABLE KEYS */;
/*!40000 ALTER TABLE \`part\` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table \`tc\`
--

DROP TABLE IF EXISTS \`tc\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE \`tc\` (
  \`a\` varchar(10) CHARACTER SET latin1 COLLATE latin1_bin DEFAULT NULL,
  \`b\` blob DEFAULT NULL,
  \`c\` char(3) CHARACTER SET latin1 COLLATE latin1_swedish_ci DEFAULT NULL,
  \`d\` varchar(3) CHARACTER SET ucs2 COLLATE ucs2_general_ci DEFAULT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb3 COLLATE=utf8mb3_general_ci ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table \`tc\`
--

LOCK TABLES \`tc\` WRITE;
/*!40000 ALTER TABLE \`tc\` DISABLE KEYS */;
/*!40000 ALTER TABLE \`tc\` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Temporary table structure for view \`v1\`
--

DROP TABLE IF EXISTS \`v1\`;
/*!50001 DROP VIEW IF EXISTS \`v1\`*/;
SET @saved_cs_client     = @@character_set_client;
SET character_set_client = utf8mb4;
/*!50001 CREATE VIEW \`v1\` AS SELECT
 NULL AS \`id\`,
 NULL AS \`name\` */;
SET character_set_client = @saved_cs_client;

--
-- Dumping routines for database 'd1'
--
/*!50003 SET @saved_sql_mode       = @@sql_mode */ ;
/*!50003 SET sql_mode              = 'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION' */ ;
/*!50003 DROP PROCEDURE IF EXISTS \`pr\` */;
/*!50003 SET @saved_cs_client      = @@character_set_client */ ;
/*!50003 SET @saved_cs_results     = @@character_set_results */ ;
/*!50003 SET @saved_col_connection = @@collation_connection */ ;
/*!50003 SET character_set_client  = utf8mb3 */ ;
/*!50003 SET character_set_results = utf8mb3 */ ;
/*!50003 SET collation_connection  = utf8mb3_general_ci */ ;
DELIMITER ;;
CREATE DEFINER=\`root\`@\`localhost\` PROCEDURE \`pr\`()
BEGIN CREATE TABLE IF NOT EXISTS inside_proc (x int); SELECT 1; END
;;
DELIMITER ;
/*!50003 SET sql_mode              = @saved_sql_mode */ ;
/*!50003 SET character_set_client  = @saved_cs_client */ ;
/*!50003 SET character_set_results = @saved_cs_results */ ;
/*!50003 SET collation_connection  = @saved_col_connection */ ;

--
-- Current Database: \`d1\`
--

USE \`d1\`;

--
-- Final view structure for view \`v1\`
--

/*!50001 DROP VIEW IF EXISTS \`v1\`*/;
/*!50001 SET @saved_cs_client          = @@character_set_client */;
/*!50001 SET @saved_cs_results         = @@character_set_results */;
/*!50001 SET @saved_col_connection     = @@collation_connection */;
/*!50001 SET character_set_client      = utf8mb3 */;
/*!50001 SET character_set_results     = utf8mb3 */;
/*!50001 SET collation_connection      = utf8mb3_general_ci */;
/*!50001 CREATE ALGORITHM=UNDEFINED */
/*!50013 DEFINER=\`root\`@\`localhost\` SQL SECURITY DEFINER */
/*!50001 VIEW \`v1\` AS select \`parent\`.\`id\` AS \`id\`,\`parent\`.\`name\` AS \`name\` from \`parent\` */;
/*!50001 SET character_set_client      = @saved_cs_client */;
/*!50001 SET character_set_results     = @saved_cs_results */;
/*!50001 SET collation_connection      = @saved_col_connection */;
/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;

/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;
/*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS */;
/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */;
/*!40101 SET CHARACTER_SET_CLIENT=@OLD_CHARACTER_SET_CLIENT */;
/*!40101 SET CHARACTER_SET_RESULTS=@OLD_CHARACTER_SET_RESULTS */;
/*!40101 SET COLLATION_CONNECTION=@OLD_COLLATION_CONNECTION */;
/*!40111 SET SQL_NOTES=@OLD_SQL_NOTES */;

-- Dump completed on 2026-11-30  3:01:24
`;
